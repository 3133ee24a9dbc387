"""Lexical relevance: BM25 over definitions and files (pure, after the indexer's reads).

Every definition is a document made of its own lines (its body minus the bodies of the
definitions nested in it), with the words of its name counted ``NAME_WEIGHT`` times; every
file is a document made of all its words plus its path's words. Words are identifiers split
on case and underscores, lower-cased and stemmed with the Snowball English stemmer
(PyStemmer), so "merging" meets ``merge`` and "directories" meets ``directory``; whole
identifiers are kept as well (prefixed ``=``) so that a task naming ``keep_attrs`` rewards
code that uses exactly that name. Tokens that are codes rather than words keep their whole
form too: a name with digits (``E3057``, ``float64``) and a kebab-case compound
(``used-before-assignment``, ``no-cache``: message ids and option names, usually in string
literals), which is then one term and not its words (those are counted on their own).
A task's adjacent words also meet the compound identifier they spell: "profile detect"
queries ``=profile_detect`` and ``=profiledetect``. A task word that no document holds
meets the repository's names it abbreviates or spells (``abbreviation_terms``: "cfg" for
``load_config``, "doctype" for ``DocumentType``), learned from the names, not from a list.

Ranking is Okapi BM25 (Robertson and Zaragoza, "The Probabilistic Relevance Framework:
BM25 and Beyond", 2009) with the usual k1 = 1.2, b = 0.75.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import chain, groupby, islice

import Stemmer  # type: ignore[import-not-found]  # PyStemmer ships no type stubs

from .model import FileTags
from .task import (MAX_TASK_KEYWORDS, STOP_WORDS, ParsedTask, case_shape, is_path_symbol,
                   split_identifier)

__all__ = ["LexicalIndex", "file_documents", "file_postings", "query_terms", "joined_words",
           "NAME_WEIGHT", "DOCUMENTS_VERSION", "abbreviation_terms"]

NAME_WEIGHT = 3
# The version of the terms ``file_documents`` makes: a persistent index keeps them, so it is
# part of the index's fingerprint and an index built with other terms is rebuilt.
# 2: codes with digits and kebab-case compounds as whole terms. 3: Unicode identifiers.
DOCUMENTS_VERSION = 3
K1 = 1.2
B = 0.75
# Identifiers are Unicode (``task.IDENTIFIER``: ``grüße``). An ASCII text, most code, is
# read with the ASCII pattern of each, which finds the same and is faster; the Unicode
# ones find the same as ``[^\W\d]\w*`` and the compound below with ``[^\W\d_]`` for
# ``[A-Za-z]``, written to test a letter's category only where a range lets one through
# (on the 90 files of ctxopt/ holding a non-ASCII character, CPU-s for ten passes:
# identifiers 0.035 ASCII, 0.055 Unicode, 0.049 so; compounds 0.047, 0.090, 0.058).
# The Unicode patterns are compiled on first use (``_unicode``): 20 ms at import, which a
# warm gather of ASCII code never needs.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_IDENTIFIER_UNICODE = r"[A-Za-z_\x80-\U0010ffff](?<=[^\W\d])\w*"
# kebab-case compounds: every part starts with a letter, so ``n-1`` is not one. (The same
# as ``(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+(?![\w-])``, written to let
# the regex engine skip to letters: a third faster.)
_COMPOUND = re.compile(r"[A-Za-z](?<![\w-].)[A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+(?![\w-])")
_COMPOUND_UNICODE = (r"[A-Za-z\x80-\U0010ffff](?<![\w-].)(?<=[^\W\d_])[^\W_]*"
                     r"(?:-[^\W\d_][^\W_]*)+(?![\w-])")
# what every compound holds: a line without it has none (found at the speed of a search
# for "-")
_DASH_IN_WORD = re.compile(r"-(?<=[A-Za-z0-9]-)[A-Za-z]")
_DASH_IN_WORD_UNICODE = r"-(?<=[^\W_]-)[^\W\d_]"


@cache
def _unicode(pattern: str) -> re.Pattern[str]:
    """One of the ``_*_UNICODE`` patterns, compiled (once)."""
    return re.compile(pattern)


def _identifiers(text: str) -> list[str]:
    """The identifiers of ``text``, in order, repeated as found."""
    return (_IDENTIFIER if text.isascii() else _unicode(_IDENTIFIER_UNICODE)).findall(text)


# An ASCII text's bytes that no identifier holds (all but letters, digits and ``_``),
# turned to spaces by ``_word_runs``.
_NOT_WORD = bytes(c if c == 95 or (c < 128 and chr(c).isalnum()) else 32 for c in range(256))
_DIGITS = "0123456789"


def _word_runs(text: str) -> list[str]:
    """What ``_run_terms`` reads the identifiers of ``text`` from, in order, repeated as
    found: an ASCII text's runs of letters, digits and ``_`` (a quarter faster to find than
    the identifiers, and each holds at most one: the run without its leading digits, so
    ``0x1F`` holds ``x1F`` and ``12`` none), another text's identifiers."""
    if text.isascii():
        return text.encode("ascii").translate(_NOT_WORD).decode("ascii").split()
    return _unicode(_IDENTIFIER_UNICODE).findall(text)


def _run_terms(run: str) -> tuple[str, ...]:
    """``_identifier_terms`` of the identifier a ``_word_runs`` token (or a compound)
    holds; none for a number."""
    if run[0] in _DIGITS:
        run = run.lstrip(_DIGITS)
        if not run:
            return ()
    return _identifier_terms(run)


def _compounds(text: str, limit: int | None = None) -> list[str]:
    """The kebab-case compounds of ``text``, in order, repeated as found; the first
    ``limit`` only, when given (found without reading the rest of a huge task)."""
    if "-" not in text:
        return []
    if text.isascii():
        pattern, dash = _COMPOUND, _DASH_IN_WORD
    else:
        pattern, dash = _unicode(_COMPOUND_UNICODE), _unicode(_DASH_IN_WORD_UNICODE)
    # the pattern tries every letter, so it reads only the lines where a dash joins two
    # words (no compound spans lines): a tenth of the time on code
    found = chain.from_iterable(pattern.findall(text, start, end)
                                for start, end in _lines_holding(dash, text))
    return list(islice(found, limit))


def _lines_holding(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line of ``text`` where ``pattern`` matches, in order."""
    end = -1
    for match in pattern.finditer(text):
        if match.start() > end:  # not on the line before
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            if end < 0:
                end = len(text)
            yield start, end


# Programming-language keywords and ubiquitous names carry no meaning for retrieval.
_CODE_STOP_WORDS = frozenset(
    "self cls def class return import from none true false null nil var let const func "
    "function new this super pass elif else lambda yield async await raise try except "
    "finally with for while break continue not and or is in if str int float bool dict list "
    "tuple set len isinstance args kwargs param params type object".split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def _identifier_terms(identifier: str) -> tuple[str, ...]:
    """Stemmed words of an identifier, plus ``=identifier`` for compound names and names
    with digits; a kebab-case compound gives ``=compound`` alone."""
    if "-" in identifier:
        return ("=" + identifier.lower(),)
    words = [w for w in split_identifier(identifier)
             if len(w) > 1 and not w.isdigit() and w not in STOP_WORDS and w not in _CODE_STOP_WORDS]
    terms = _stemmer().stemWords(words) if words else []
    if (len(words) > 1 or "_" in identifier.strip("_")
            or (len(identifier) > 2 and not identifier.isalpha() and not identifier.isdigit())):
        terms.append("=" + identifier.lower())
    return tuple(terms)


def term_words(text: str, limit: int | None = MAX_TASK_KEYWORDS) -> dict[str, str]:
    """Term -> the word of ``text`` that gives it, as written, for saying which of a
    task's words a definition matched: a stem gives the word part it stems (``handl`` ->
    ``handling``; a word of one part as written), an ``=identifier`` term the identifier
    (``=httperror`` -> ``HTTPError``, ``=fix`` -> ``Fix``: a symbol's whole name). The
    first word giving a term wins; the first ``limit`` distinct identifiers only
    (``query_terms`` reads a huge task no further).

    >>> words = term_words("Fix HTTPError handling")
    >>> words["handl"], words["=httperror"], words["http"], words["fix"]
    ('handling', 'HTTPError', 'http', 'Fix')
    """
    words: dict[str, str] = {}
    for identifier in islice(dict.fromkeys(_identifiers(text)), limit):
        parts = split_identifier(identifier)
        for part in parts:
            for term in _words(part):
                words.setdefault(term, identifier if len(parts) == 1 else part)
        for term in (*_identifier_terms(identifier), "=" + identifier.lower()):
            words.setdefault(term, identifier)
    return words


def name_words(name: str) -> set[str]:
    """The stemmed words of an identifier, as documents and queries hold them."""
    return set(_words(name))


def _words(identifier: str) -> list[str]:
    return [t for t in _identifier_terms(identifier) if not t.startswith("=")]


def text_terms(text: str) -> Counter[str]:
    """Term frequencies of a piece of code or prose (stemmed words and ``=identifier``s)."""
    return _tokens_terms(_tokens(text))


def terms_weight(text: str, weights: Mapping[str, float]) -> float:
    """The sum of ``weights`` of the distinct terms of ``text`` (``text_terms``), added in
    the order the terms first appear; 0 when it holds none of them (most lines: found
    without counting its terms or looking up each one)."""
    found = dict.fromkeys(chain.from_iterable(map(_terms_lookup(), _tokens(text))))
    if weights.keys().isdisjoint(found):
        return 0.0
    return sum(weights[term] for term in found if term in weights)


def _tokens(text: str) -> list[str]:
    """The word runs of a text (``_word_runs``), then its kebab-case compounds: each
    stands for the terms ``_terms_lookup`` gives it."""
    return _word_runs(text) + _compounds(text)


def _tokens_terms(tokens: list[str]) -> Counter[str]:
    """The terms of ``tokens`` (of ``_tokens``, repeated as found), each counted once per
    token holding it: ``text_terms`` of the text they were found in, terms in order of
    first appearance."""
    return Counter(chain.from_iterable(map(_terms_lookup(), tokens)))


class _KnownTerms(dict[str, tuple[str, ...]]):
    """token -> ``_run_terms(token)``, filled as tokens are looked up. Its ``__getitem__``
    is dict's, a C function, so that ``map`` and ``Counter`` count the terms of many
    tokens without running Python code: only a token never seen before does (in
    ``__missing__``), with no set of each file's tokens to make first. Emptied when it
    holds ``_KNOWN_TERMS_MAX`` tokens, so that it stays bounded."""

    def __missing__(self, token: str) -> tuple[str, ...]:
        terms = _run_terms(token)
        if len(self) >= _KNOWN_TERMS_MAX:
            self.clear()
        self[token] = terms
        return terms


def _terms_lookup() -> Callable[[str], tuple[str, ...]]:
    """token -> ``_run_terms(token)``, as a C function (see ``_KnownTerms``)."""
    return _known_terms.__getitem__


_known_terms = _KnownTerms()
_KNOWN_TERMS_MAX = 200_000


# Words that describe a bug report rather than the code ("X fails with an error"); as
# keywords they match every error-handling branch. Named symbols keep them.
REPORT_WORDS = frozenset(
    "fix fixes fixed fixing bug bugs buggy fail fails failed failing failure error errors "
    "wrong incorrect incorrectly broken break breaks regression crash crashes issue problem "
    "expected unexpected unexpectedly throws raises raised exception should".split()
)


def query_terms(task: ParsedTask) -> Counter[str]:
    """The task's terms: keywords and its kebab-case compounds once, its adjacent words
    joined once; the words and whole names of its symbols (of a repository file's path,
    ``task.addresses``, the file name's only) and its codes (``E3057``) twice."""
    terms: Counter[str] = Counter()
    for keyword in task.keywords:
        if keyword in REPORT_WORDS:
            continue
        for term in _identifier_terms(keyword):
            terms[term] = 2 if _CODE.fullmatch(term) else 1
    # a huge task (a pasted log) is cut as ``task.limit_task`` cuts its keywords
    for compound in _compounds(task.raw, MAX_TASK_KEYWORDS):
        terms["=" + compound.lower()] = 1
    for joined in joined_words(task.raw, limit=MAX_TASK_KEYWORDS):
        terms.setdefault(joined, 1)
    for symbol in task.symbols:
        # a plain capitalised word ("Accessing", "Pylint") is English more often than code
        weight = 2 if _looks_like_code(symbol) else 1
        named = symbol.rpartition("/")[2] if symbol in task.addresses else symbol
        for part in _symbol_parts(named):
            for word in _words(part):
                terms[word] = max(terms[word], weight)
            if part.lower() not in _CODE_STOP_WORDS:  # "False positive" names no `FALSE`
                terms["=" + part.lower()] = max(terms["=" + part.lower()], weight)
        # a named file's extension is no name, but a word of the code that handles such
        # files (``".py"`` in a check of paths): "collect __init__.py files"; not of one
        # repository file the task names by its path (trial 21: "fix CrLf in
        # weird/crlf.go" matched the `//go:build` line of every Go file that has one)
        if symbol not in task.addresses:
            for word in _words(_extension(symbol)):
                terms[word] = max(terms[word], 1)
    return terms


def _extension(symbol: str) -> str:
    """The file extension of a task's symbol that names a file (``js`` of
    ``square.js``), else ''."""
    if not is_path_symbol(symbol):
        return ""
    stem, dot, extension = symbol.rpartition(".")
    return extension if dot and stem and "/" not in extension else ""


def _symbol_parts(symbol: str) -> list[str]:
    """The names a task's symbol holds: its dotted or path parts, without a path's file
    extension (``js`` of ``square.js``) and, in a symbol of several parts, without
    one-letter parts (``b`` of a file name ``b.dtd`` quoted in the task): those are
    fragments of a literal, not names."""
    parts = [p for p in re.split(r"[./\\]", symbol) if p]
    if _extension(symbol) and len(parts) > 1:
        parts.pop()
    return parts if len(parts) == 1 else [p for p in parts if len(p) > 1]


# Words of a task that can spell an identifier together: runs separated by blanks only.
# (never starting inside a run of letters: from each letter of a 10,000-letter word the
# search went back over the rest, 20 s a gather, trial 6)
_RUN = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?:[ \t]+[^\W\d_]+)+")


def joined_words(text: str, longest: int = 3, *, limit: int | None = None) -> list[str]:
    """``=a_b`` and ``=ab`` terms for each two adjacent words of ``text`` (and ``=a_b_c``
    for three), as a compound identifier spelled out in prose ("profile detect" for
    ``profile_detect``, "document type" for ``DocumentType``) gives them; grams made of
    stop words only are skipped. No duplicates, in order; the first ``limit`` only, when
    given (found without reading the rest of a huge task).

    >>> joined_words("run profile detect")
    ['=run_profile', '=runprofile', '=profile_detect', '=profiledetect', '=run_profile_detect']
    """
    found: dict[str, None] = {}
    for match in _RUN.finditer(text):
        words = match.group(0).lower().split()
        for size in range(2, longest + 1):
            for i in range(len(words) - size + 1):
                gram = words[i:i + size]
                if all(w in STOP_WORDS for w in gram):
                    continue
                found.setdefault("=" + "_".join(gram))
                if size == 2:
                    found.setdefault("=" + "".join(gram))
        if limit is not None and len(found) >= limit:
            return list(found)[:limit]
    return list(found)


# A code as issue titles quote them (rule ids E3057, W8001): a name ending in 3+ digits.
# Shorter ones (``w64``, ``py3``) are as often part of a product name.
_CODE = re.compile(r"=[a-z]+\d{3,}")


def _looks_like_code(symbol: str) -> bool:
    """True for names no prose would use: snake_case, camelCase, dotted, paths, HTTPAdapter
    (letters of any script: ``größeÄndern``)."""
    if re.search(r"[_./\\]", symbol):
        return True
    return bool(re.search(r"lU|UUl", case_shape(symbol)))


# An abbreviation stands for at most this many of the repository's words or names;
# one that fits more says nothing.
MAX_EXPANSIONS = 3
_VOWELS = frozenset("aeiou")


def abbreviation_terms(words: Iterable[str], names: Iterable[str]) -> Counter[str]:
    """Terms that stand for task ``words`` no document holds, learned from the
    repository's definition ``names``: the stemmed words of names that the word
    abbreviates or that abbreviate it (``cfg`` and ``config``, ``attr`` and
    ``attribute``, ``repository`` and ``repo``: see ``_abbreviates``) and the whole
    names whose words it spells, cut or not (``doctype`` for ``DocumentType`` or
    ``DocType``). A word that fits more than ``MAX_EXPANSIONS`` words or names gives
    nothing; each term weighs 1, as a word of the task."""
    wanted = [w for w in dict.fromkeys(words) if len(w) >= 3 and w.isalpha()]
    if not wanted:
        return Counter()
    names = list(names)
    joined = " ".join(names)
    vocabulary = ({w.lower() for w in _NAME_WORD.findall(joined) if len(w) >= 3}
                  if joined.isascii() else
                  {w for n in names for w in split_identifier(n) if len(w) >= 3 and w.isalpha()})
    initials = {w[0] for w in wanted}
    by_initial: dict[str, list[str]] = defaultdict(list)
    for name in names:
        initial = name.lstrip("_")[:1].lower()
        if initial in initials:
            by_initial[initial].append(name)
    terms: Counter[str] = Counter()
    for word in wanted:
        found = {"=" + name.lower() for name in by_initial[word[0]]
                 if _spells(word, split_identifier(name))}
        if not found:  # (a word that spells names, or two words, is a compound)
            found = {t for v in vocabulary if v != word and (
                         _abbreviates(word, v)
                         or (_abbreviates(v, word) and word[len(v):] not in vocabulary))
                     for t in _words(v)}
        if len(found) <= MAX_EXPANSIONS:
            terms.update(dict.fromkeys(found, 1))
    return terms


# The words of ASCII names, as ``task.split_identifier`` finds them (letters only).
_NAME_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")


def _abbreviates(short: str, long: str) -> bool:
    """``short`` is a prefix of ``long`` or its consonant skeleton (the same first
    letter, then some of ``long``'s consonants in order: ``cfg``, ``msg``), of 3 letters
    or more. A prefix is 2 letters shorter than ``long``'s stem at least, so that a
    word is no abbreviation of its inflections (``demo`` of ``demotes``, stem ``demot``);
    a skeleton has 40% of ``long``'s letters at least (``cfg`` is not ``conflicting``)."""
    if len(short) < 3 or len(short) >= len(long):
        return False
    if long.startswith(short):
        return len(short) <= len(_stemmer().stemWord(long)) - 2
    if short[0] != long[0] or _VOWELS & set(short[1:]) or len(short) < 0.4 * len(long):
        return False
    rest = iter(long[1:])
    return all(c in rest for c in short[1:])


def _spells(word: str, parts: list[str]) -> bool:
    """``word`` is the concatenation of a prefix (2 letters or more, or the whole part)
    of each of two or more ``parts`` in order (``doctype`` for document + type, or for
    doc + type)."""
    if len(parts) < 2:
        return False

    def match(at: int, i: int) -> bool:
        if i == len(parts):
            return at == len(word)
        part = parts[i]
        for size in range(min(len(part), len(word) - at), 1, -1):
            if word.startswith(part[:size], at) and match(at + size, i + 1):
                return True
        return False
    return match(0, 0)


@dataclass(frozen=True, slots=True)
class FileDocuments:
    """Term frequencies of one file: one Counter per definition (same order as its tags)
    and one for the whole file."""

    path: str
    definitions: tuple[Counter[str], ...]
    file: Counter[str]


def file_documents(path: str, text: str, tags: FileTags | None) -> FileDocuments:
    """Split a file's text into definition documents and a file document.

    ``text`` lines are 1-indexed as in ``tags``. A definition's document holds its own
    lines only: lines of nested definitions belong to those.
    """
    lines = text.split("\n")
    path_words = _words(path.rsplit(".", 1)[0].replace("/", "_"))
    if tags is None or not tags.definitions:
        file_terms = text_terms(text)
        for word in path_words:
            file_terms[word] += NAME_WEIGHT
        return FileDocuments(path, (), file_terms)
    identifiers = _owned_tokens(lines, tags)
    terms_of = _terms_lookup()
    own_terms = {i: Counter(chain.from_iterable(map(terms_of, found)))
                 for i, found in identifiers.items()}
    # The file's terms are its parts' terms summed, in order of first appearance (as
    # counting all its identifiers again would give them, at several times the cost).
    file_terms = Counter[str]()
    for terms in own_terms.values():
        if not file_terms:
            file_terms.update(terms)
            continue
        get = file_terms.get
        for term, tf in terms.items():
            file_terms[term] = get(term, 0) + tf
    for word in path_words:
        file_terms[word] += NAME_WEIGHT
    documents = []
    for i, definition in enumerate(tags.definitions):
        terms = own_terms.get(i) or Counter()
        for word in _words(definition.name):
            terms[word] += NAME_WEIGHT
        terms["=" + definition.name.lower()] += NAME_WEIGHT
        if definition.parent is not None:
            for word in _words(tags.definitions[definition.parent].name):
                terms[word] += 1
        documents.append(terms)
    return FileDocuments(path, tuple(documents), file_terms)


def _owned_tokens(lines: list[str], tags: FileTags) -> dict[int, list[str]]:
    """Owner -> the tokens (``_tokens``) of the lines it owns, owners in order of their
    first line: each definition's own lines (its lines minus those of the definitions
    nested in it), -1 for the lines outside definitions."""
    owner = [-1] * (len(lines) + 2)  # innermost definition owning each line
    for i, definition in enumerate(tags.definitions):  # sorted by start: inner ones overwrite
        first, last = definition.start_line, min(definition.end_line, len(lines))
        if last >= first:
            owner[first:last + 1] = [i] * (last + 1 - first)
    own_lines: dict[int, list[str]] = defaultdict(list)  # -1: lines outside definitions
    line = 1
    for i, run in groupby(owner[1:len(lines) + 1]):  # runs of lines with one owner
        length = len(list(run))
        own_lines[i].extend(lines[line - 1:line - 1 + length])
        line += length
    # Identifiers never span lines, so the file's are those of all its parts together.
    return {i: _tokens("\n".join(own)) for i, own in own_lines.items()}


def file_postings(path: str, text: str, tags: FileTags | None
                  ) -> tuple[int, int, int, list[tuple[str, bytes]]]:
    """``store.lexical.postings_of(file_documents(path, text, tags))``, the same rows in
    another order, made in one pass over each definition's terms instead of three (the
    file's terms summed, the name's words added, the postings gathered): what the
    indexer stores. Each posting's data is marshalled from the same objects as there
    (an int shared by a file's and a definition's count is written once and referred
    to), so its bytes are the same too."""
    if tags is None or not tags.definitions:
        from .store.lexical import postings_of

        return postings_of(file_documents(path, text, tags))
    import marshal

    definitions = tags.definitions
    terms_of = _terms_lookup()
    own_terms = {i: Counter(chain.from_iterable(map(terms_of, found)))
                 for i, found in _owned_tokens(text.split("\n"), tags).items()}
    # term -> [the file's count (None: not in its document), then definition index,
    # count, document length for each definition holding it, by index]
    entries: dict[str, list] = {}
    get = entries.get
    # ``file_documents`` sums the parts' counts into the file's, the counts of the first
    # part holding a term taken as they are (``Counter.update`` of an empty Counter):
    # those are the same int objects as that part's counts, the others new ones (``0 + tf``)
    first = next((i for i, terms in own_terms.items() if terms), None)
    file_length = 0
    outside = own_terms.get(-1)
    if outside:
        file_length += sum(outside.values())
        shared = first == -1
        for term, tf in outside.items():
            entries[term] = [tf if shared else 0 + tf]
    total = 0
    for i, definition in enumerate(definitions):
        terms = own_terms.get(i)
        # the name's words, weighted (``file_documents``): in the definition's document
        # only, not the file's
        named = [(word, NAME_WEIGHT) for word in _words(definition.name)]
        named.append(("=" + definition.name.lower(), NAME_WEIGHT))
        if definition.parent is not None:
            named += [(word, 1) for word in _words(definitions[definition.parent].name)]
        own_length = sum(terms.values()) if terms else 0
        file_length += own_length
        length = own_length + sum(weight for _, weight in named)
        total += length
        if terms:
            shared = first == i
            for term, tf in terms.items():
                entry = get(term)
                if entry is None:
                    entries[term] = [tf if shared else 0 + tf, i, tf, length]
                else:
                    counted = entry[0]
                    entry[0] = (tf if shared else 0 + tf) if counted is None else counted + tf
                    entry += (i, tf, length)
        for term, weight in named:
            entry = get(term)
            if entry is None:
                entries[term] = [None, i, weight, length]
            elif len(entry) > 1 and entry[-3] == i:  # this definition's: counted again
                entry[-2] = entry[-2] + weight
            else:
                entry += (i, weight, length)
    for word in _words(path.rsplit(".", 1)[0].replace("/", "_")):
        entry = get(word)
        if entry is None:
            entries[word] = [NAME_WEIGHT]
        else:
            entry[0] = NAME_WEIGHT if entry[0] is None else entry[0] + NAME_WEIGHT
        file_length += NAME_WEIGHT
    dumps = marshal.dumps
    return (len(definitions), total, file_length,
            [(term, dumps(tuple(entry))) for term, entry in entries.items()])


@dataclass
class _Collection:
    postings: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    lengths: list[int] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    def add(self, key: str, terms: Counter[str]) -> None:
        doc = len(self.keys)
        self.keys.append(key)
        self.lengths.append(sum(terms.values()))
        for term, tf in terms.items():
            self.postings[term].append((doc, tf))

    def score(self, query: Counter[str]) -> dict[str, float]:
        return bm25(query, len(self.keys), sum(self.lengths),
                    lambda term: [(self.keys[doc], tf, self.lengths[doc])
                                  for doc, tf in self.postings.get(term, ())])


def bm25(query: Counter[str], documents: int, total_length: int,
         postings: Callable[[str], list[tuple[str, int, int]]]) -> dict[str, float]:
    """Okapi BM25 scores of the documents matching at least one query term.

    Parameters
    ----------
    query : Counter
        Term -> weight (how many times the term counts in the query).
    documents, total_length : int
        Size of the collection: number of documents and the sum of their lengths (terms).
    postings : callable
        Term -> [(document key, term frequency, document length)], one entry a document.

    The one formula behind both the in-memory and the stored index; ``K1`` and ``B`` are
    read when called.
    """
    if not documents:
        return {}
    average = total_length / documents or 1.0
    scores: dict[str, float] = {}
    for term, weight in query.items():
        posting = postings(term)
        if not posting:
            continue
        idf = math.log(1 + (documents - len(posting) + 0.5) / (len(posting) + 0.5))
        for key, tf, length in posting:
            norm = tf + K1 * (1 - B + B * length / average)
            scores[key] = scores.get(key, 0.0) + weight * idf * tf * (K1 + 1) / norm
    return scores


class LexicalIndex:
    """BM25 over definition documents (keyed by graph node id) and file documents."""

    def __init__(self, documents: Iterable[FileDocuments]) -> None:
        self._terms: dict[str, Counter[str]] = {}
        self._definitions = _Collection()
        self._files = _Collection()
        for docs in sorted(documents, key=lambda d: d.path):
            for i, terms in enumerate(docs.definitions):
                self._definitions.add(f"{docs.path}#{i}", terms)
                self._terms[f"{docs.path}#{i}"] = terms
            self._files.add(docs.path, docs.file)

    def score_definitions(self, query: Counter[str]) -> dict[str, float]:
        """Node id -> BM25 score for every definition matching at least one query term."""
        return self._definitions.score(query)

    def score_files(self, query: Counter[str]) -> dict[str, float]:
        """Path -> BM25 score for every file matching at least one query term."""
        return self._files.score(query)

    def holds(self, term: str) -> bool:
        """Whether any file's document holds ``term``."""
        return term in self._files.postings

    def terms_held(self, node: str, terms: Iterable[str]) -> list[str]:
        """The ``terms`` the document of definition ``node`` holds, in their order."""
        held = self._terms.get(node, Counter())
        return [t for t in terms if t in held]
