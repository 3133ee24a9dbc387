"""The ring walker's knobs (``WalkConfig``), hand-set weights (``RingWeights``) and fitted
rankers (``Ranker``, ``RANKERS``)."""
from __future__ import annotations

import math
from dataclasses import dataclass, fields

from .graph.rules import is_test_path

__all__ = ["RANKERS", "Ranker", "RingWeights", "WalkConfig"]


@dataclass(frozen=True, slots=True)
class RingWeights:
    """How much each relation counts, as weights in [0, 1] within the ring's score band
    (``model.RING_BANDS``); a weight is mostly ``base + relevance * rel`` with ``rel`` the
    definition's lexical relevance to the task in [0, 1].

    Where the values come from: set by hand, the bases with the first walker (commit
    6e40be4: the closer the relation, the higher) and the relevance terms when BM25
    relevance came in (b873247); they were not tuned one by one. Only the caps of
    ``WalkConfig`` and the signature detail of tests were measured on the localization
    benchmark (commits 26dfc57, efcc56f). In ring 3 a fitted ``Ranker``
    (``RANKERS``) takes these weights as one of its features.
    """

    # Ring 0: how well a task's symbol names a definition (by qualified name, by name
    # with its other parts naming the file's path, by exact name, case-insensitively),
    # or a file named in the task; a seed in a file the task also names gains a little.
    seed_qualified: float = 1.0
    seed_exact: float = 0.95
    seed_by_path: float = 0.85
    seed_file: float = 0.8
    seed_folded: float = 0.7
    seed_in_named_file: float = 0.1
    # A named test ranks below the code it tests; a named definition's quality is
    # scaled by ``seed_base + seed_relevance * rel``.
    seed_test: float = 0.6
    seed_base: float = 0.7
    seed_relevance: float = 0.3
    # Ring 1. A method or function member says more about a class than its fields do.
    callable_member: float = 0.3
    other_member: float = 0.1
    member_relevance: float = 0.6
    # The definition around a seed is shown by its header only: a fixed middle weight.
    enclosing: float = 0.5
    subclass: float = 0.3
    subclass_relevance: float = 0.5
    # Callees are mostly helpers: low base, ranked by what the task's words point at (a
    # helper they do not point at ranks below a seed's fields and inherited members).
    # 0.05 (was 0.1; session 37, all 346 benchmark tasks at 2000/4000/8000): 7 task-budgets
    # up on four projects, none down; 0.07 five up; 0.03 and 0 lost xarray-9765's gold file.
    callee: float = 0.05
    callee_relevance: float = 0.7
    # A seed's style twin (``walk.twin_ring``): the same thing's class or function, as
    # close as a callee the task's words point at.
    twin: float = 0.3
    twin_relevance: float = 0.6
    # Along inheritance (``walk_inherit``): the constructor a seed class inherits runs
    # whenever the class is called, so it ranks like a callable member; other inherited
    # members rank as callees did before session 37 (0.05 lost cfn-lint-3390's lines);
    # the base method a seed method overrides is as close as a member, its overrides in
    # subclasses a little less. Set by hand, like the others.
    inherited_constructor: float = 0.4
    inherited: float = 0.1
    inherited_relevance: float = 0.6
    overridden: float = 0.35
    override: float = 0.2
    override_relevance: float = 0.6
    # Along parameter flow (``walk_flow``): a callee the task's parameter is passed on to
    # is where the argument takes effect, so it ranks above a mere callee; one step
    # further down counts ``flow_fall`` less. Set by hand.
    flow: float = 0.45
    flow_fall: float = 0.1
    flow_relevance: float = 0.5
    # Ring 2. Tests rank below callers (shown as signatures: line recall +0.02).
    test: float = 0.05
    test_relevance: float = 0.15
    # A caller of a seed counts more than a caller of a member...
    caller_of_seed: float = 0.25
    caller_of_member: float = 0.15
    # ...and more the more often it uses it, up to ``uses_saturation`` uses.
    caller_uses: float = 0.1
    caller_relevance: float = 0.55
    import_penalty: float = 0.15  # an import alone shows little of how a name is used
    uses_saturation: int = 3
    # A seed's short file shown whole (``WalkConfig.max_short_file_lines``): low in ring
    # 2, below callees and callers that match the task's words (at 0.5 it displaced other
    # files' signatures: Live conan file recall at 4000 0.68 -> 0.62).
    short_file: float = 0.1
    # Ring 3. Siblings share the seed's file and often its purpose.
    sibling: float = 0.2
    sibling_relevance: float = 0.7
    # Word matches beyond the seeds: only those above ``word_match_floor`` relevance.
    word_match_relevance: float = 0.8
    word_match_floor: float = 0.2
    # The best definition of the k-th best-matching file not yet shown:
    # ``signature_file - signature_file_fall * k / (4 * max_signature_files)``.
    signature_file: float = 0.95
    signature_file_fall: float = 0.5
    # Ring 4. Callers of callers: like ring-2 callers, a step further away.
    transitive: float = 0.2
    transitive_uses: float = 0.2
    transitive_relevance: float = 0.6


@dataclass(frozen=True, slots=True)
class Ranker:
    """A logistic ranker for the items of some rings: an item's weight in its ring's band
    is ``sigmoid(intercept + sum(coefficient * feature))``, an estimate of the chance that
    the item holds a line the task's fix changes. The features of an item (``_Walk.
    features``):

    - ``hand``: the weight ``RingWeights`` gives its relation (in [0, 1]);
    - ``relevance``: its definition's lexical relevance to the task, in [0, 1];
    - ``in_degree``: log(1 + references into its definition) (0 for a file);
    - ``test``: 1 for a test, else 0;
    - ``size``: log of its line count;
    - ``seed_file``: 1 when it lies in the file of a ring-0 item, else 0;
    - ``file_match``: its file's lexical match over the best file's, in [0, 1].
    """

    intercept: float
    hand: float = 0.0
    relevance: float = 0.0
    in_degree: float = 0.0
    test: float = 0.0
    size: float = 0.0
    seed_file: float = 0.0
    file_match: float = 0.0

    def weight(self, features: dict[str, float]) -> float:
        """The weight in [0, 1] for ``features`` (a value for every coefficient)."""
        z = self.intercept + sum(getattr(self, f.name) * features[f.name]
                                 for f in fields(self) if f.name != "intercept")
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


# The rankers of rings 1-2 and of ring 3 (None: the hand-set weights). Ring 4 (callers of
# callers, walked only with ``max_ring=4``) always keeps the hand-set weights: the fit saw
# none of its items.
#
# Ring 3 (same-file siblings, word matches, the best definition of other matching
# files): a logistic regression of "the item holds a changed line" on the features, on the
# walker's items of the localization benchmark (../shared/bench: the 62 tasks of
# loc_dev.jsonl and the Live mix of 120 of loc_dev_live.jsonl, 10,816 items of ring 3,
# 72 of them holding changed lines; each task weighs the same; the raw features of
# ``_Walk.features``, L2 with C=1, scikit-learn; fitted by scripts kept outside the
# repository, /work/wt/rank-tools fitmodel.py and lopo.py, 2026-12-02). The
# weights fitted leaving each project out (8 folds) lie close to these (hand -1.8 to -2.5,
# relevance 1.2 to 2.0, test -3.0 to -3.9, file_match 2.5 to 4.5), and with them each
# left-out project's line recall at 2,000, 4,000 and 8,000 tokens was the hand-set
# weights' or above (Live pylint +0.015 at 4,000 and 8,000, dev pytest +0.013 at 8,000;
# one task each) except Live flask's at 4,000 (one of its 2 tasks: 0.900 -> 0.858);
# symbol recall -0.014 on dev and +0.013 on Live at 8,000. Those tasks are now its
# training data: only these left-out figures judge it. Read: a
# definition of a well-matching file that is neither a test nor the signature of a far
# file (whose hand weight is high, and which shows no changed line) goes first. The
# chances are small (mostly below 0.05), so ring 3 scores near its band's floor; in
# their tier (``Tier.WHOLE``) only the order counts.
#
# Rings 1-2 keep the hand-set weights: a ranker fitted the same way raised Live line
# recall (+0.013 at 4,000 and +0.012 at 8,000) but lowered dev's (-0.016 at 4,000, dev
# xarray -0.045) and Live xarray's (-0.039 at 8,000). Ring 0 keeps them too: a fitted one
# cost line recall at 2,000 tokens (dev pylint 0.227 -> 0.127, Live conan 0.228 -> 0.182).
RANKERS: tuple[Ranker | None, Ranker | None] = (
    None,
    Ranker(intercept=-8.40, hand=-2.20, relevance=1.70, in_degree=-0.158, test=-3.74,
           size=0.497, seed_file=0.610, file_match=3.60),
)


@dataclass(frozen=True, slots=True)
class WalkConfig:
    """Knobs of the ring walk; each default says why it is what it is."""

    max_ring: int = 3
    include_tests: bool = True
    scope: str | None = None  # repo-relative directory or file; None keeps everything
    # A caller longer than this contributes a window around its calls, not its whole body.
    caller_max_lines: int = 60
    caller_window: int = 6  # lines either side of a call in such a window
    # A containing class is shown by its header, at most this many lines.
    header_max_lines: int = 15
    # Lexical seeds: the best BM25 matches join the named definitions in ring 0.
    max_keyword_seeds: int = 10
    min_seed_relevance: float = 0.25  # relative to the best match
    lexical_seed_quality: float = 0.5  # word matches score at most this...
    named_seed_floor: float = 0.5  # ...and named definitions at least this
    # A word-matched variable or constant (a table of literals, mostly) scores this share
    # of its quality: at 8,000 tokens on the 346 benchmark tasks such ring-0 blocks held
    # 8% of ring 0's text and 1.6% of its changed lines, 0.2 of a function's or class's
    # yield per token (session 38); at 0.5 and 0.25 seven and eight task-budgets rose on
    # four projects and none fell, at 0.1 one fell.
    data_seed_share: float = 0.25
    # The k-th frame of a trace out from the failure seeds at 1 / (1 + k * frame_decay) of
    # the top quality: the 5th out (0.5) is named no more (set by hand, trial 8: a Java
    # trace's every frame scored the same).
    frame_decay: float = 0.25
    max_matches_per_symbol: int = 8
    file_weight: float = 0.5  # how much a file's own match lifts its definitions
    test_discount: float = 0.5  # tests rank below the code they test
    # ...and so does benchmark code (trial 38: zod's packages/bench took 3,500 of 8,000
    # tokens on its words; on the benchmark's tasks xarray's asv_bench/ is the only such
    # code: xarray-9760's gold file found at 8,000, xarray-8840's symbol recall 0.52 ->
    # 0.48, every other task unchanged)
    benchmark_discount: float = 0.5
    # A definition longer than this is shown by its header; its members compete on their own.
    large_definition_lines: int = 150
    max_members_of_large: int = 6
    max_callers: int = 5  # hub symbols have hundreds of callers; keep the most relevant
    max_callees: int = 6  # per seed, the most relevant helpers it uses
    max_tests: int = 3  # tests of the seeds and their members, the most relevant first
    # A seed's file of at most this many lines is also offered whole, in ring 2 (0: never).
    # On the localization benchmark (Live mix of 120) this raised cfn-lint's line recall,
    # whose changed files are short rule modules, 0.40 -> 0.42 at 8000 tokens and 0.30 ->
    # 0.32 at 4000; 80 lines lost most of it.
    max_short_file_lines: int = 150
    max_short_files: int = 2  # the files of the best seeds only: a weak word match's is noise
    # Inheritance (``walk_inherit``): bases followed this many levels up (0: not at all);
    # per seed class, the most relevant inherited members besides its constructor; per
    # seed method, the most relevant overrides in subclasses.
    max_base_depth: int = 3
    max_inherited: int = 4
    max_overrides: int = 4
    # Parameter flow (``walk_flow``): calls followed down from a seed (0: not at all), and
    # the most callees shown.
    max_flow_depth: int = 3
    max_flow: int = 6
    # Callees and siblings below this relevance are shown as signatures ("detail by
    # distance"). 0 shows them whole: on the localization benchmark, signatures for them
    # cost line recall (0.588 -> 0.547 at 0.3), while signatures for tests gained 0.02.
    full_detail_relevance: float = 0.0
    max_siblings: int = 8
    max_transitive: int = 20
    # Files that match the task but have nothing shown get one signature each.
    max_signature_files: int = 10
    weights: RingWeights = RingWeights()
    # Rings 1-2 and ring 3: a fitted ranker replaces the hand-set weight (None: keeps it).
    rankers: tuple[Ranker | None, Ranker | None] = RANKERS

    def __post_init__(self) -> None:
        if not 0 <= self.max_ring <= 4:
            raise ValueError(f"max_ring must be between 0 and 4, got {self.max_ring}")

    def ranker(self, ring: int) -> Ranker | None:
        """The ranker of ``ring``'s items; None for rings 0 and 4 and where ``rankers`` has
        none."""
        return None if ring in (0, 4) else self.rankers[0 if ring <= 2 else 1]

    def admits(self, path: str, scope: bool = True) -> bool:
        """Whether items of ``path`` may be shown: tests only with ``include_tests``,
        and (when ``scope``) only under ``self.scope``."""
        if not self.include_tests and is_test_path(path):
            return False
        if scope and self.scope:
            root = self.scope.strip("/")
            return path == root or path.startswith(root + "/") or root in ("", ".")
        return True
