"""Stage 1 (pure): task text -> ``ParsedTask`` (symbols, keywords, intent).

Symbols are the identifiers and paths a developer would search for: PascalCase,
camelCase, snake_case with an underscore, dotted names, backticked words and file paths.
``::`` and ``->`` separate qualifiers as ``.`` does (``sim::Loader::Apply`` is the symbol
``sim.Loader.Apply``: one qualified name, not three names), and so does the ``$`` of a JVM
nested class before its capital (``CodeBlock$Builder.add`` is ``CodeBlock.Builder.add``),
and the ``.#`` of a JavaScript private member and the ``#`` of Ruby's and Javadoc's
``Class#method`` (``Ky.#retry`` and ``Ky#retry`` are ``Ky.retry``).
Keywords are the remaining content words in lower case, with compound identifiers split
into their words. The intent comes from verbs and phrases. References are the places in
files the task points at: ``path:line[:col]``, ``path:a-b``, ``path#La-Lb``, "lines a-b"
after a path, Python traceback frames (``File "/x/y.py", line 619, in get``), JVM stack
frames (``at com.acme.Codec.get(Codec.java:619)``; these two also name the function),
JavaScript stack frames (``at f (/srv/app/table.js:619:15)``), and the frames of Rust, Go,
.NET, PHP, native (AddressSanitizer, gdb) and Swift traces (``_FRAME_KINDS``).
"""
from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from dataclasses import dataclass, replace

from .model import Intent

__all__ = ["ParsedTask", "Reference", "find_references", "parse_task", "limit_task",
           "IDENTIFIER", "case_shape", "is_path_symbol", "split_identifier", "STOP_WORDS", "MAX_TASK_SYMBOLS", "MAX_TASK_KEYWORDS"]

# A short English stop list plus words that are frequent in tasks and say nothing about code.
STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can cannot could did do does doing done down
    during each either else even ever every few for from further get gets getting got had
    has have having he her here hers him his how however i if in into is isn it its itself
    just let lets like make makes may me might more most much must my no nor not now of off
    often on once one only or other our ours out over own per please rather same she should
    so some such than that the their theirs them then there these they this those though
    through to too under until up upon us use used uses using very via was we were what
    when where whether which while who whom why will with within without would yet you
    your yours instead still way wrong properly correctly currently new old issue issues
    problem problems work works working does doesn don t s re ve ll d m
    when whenever happen happens happening cause causes caused thing things
    """.split()
)

_INTENT_WORDS: tuple[tuple[Intent, frozenset[str]], ...] = (
    (
        Intent.FIX,
        frozenset(
            "fix fixes fixed fixing bug bugs buggy crash crashes crashed crashing error errors "
            "fail fails failed failing failure broken break breaks regression exception "
            "traceback incorrect wrong hang hangs leak leaks typo raise raises".split()
        ),
    ),
    (
        Intent.REMOVE,
        frozenset("remove removes removing delete deletes deleting drop drops deprecate "
                  "deprecated eliminate strip".split()),
    ),
    (
        Intent.ADD,
        frozenset("add adds adding implement implements implementing create creates support "
                  "introduce allow allows enable new feature".split()),
    ),
    (
        Intent.MODIFY,
        frozenset("change changes modify modifies update updates refactor rename replace "
                  "improve speed optimize optimise move convert make extend rewrite "
                  "migrate simplify clean".split()),
    ),
    (
        Intent.UNDERSTAND,
        frozenset("explain explains understand describe document what why how where "
                  "overview walkthrough show".split()),
    ),
)
_UNDERSTAND_PHRASES = ("how does", "how do", "how is", "what does", "what is", "where is",
                       "explain", "walk me through")

_CODE_EXTENSIONS = (
    "py pyi go js jsx mjs cjs ts tsx rs java c h cc cpp cxx hpp hh cs rb php kt kts swift "
    "scala sh md toml yaml yml json cfg ini txt sql html css scss vue"
).split()
_EXT_RE = "|".join(sorted(_CODE_EXTENSIONS, key=len, reverse=True))

# The most symbols and keywords a task contributes, in order of first appearance. A pasted
# log or traceback can hold thousands; a written task holds a few dozen at most.
MAX_TASK_SYMBOLS = 64
MAX_TASK_KEYWORDS = 64
# The most characters of a task that are read (about 25,000 tokens, more than most budgets
# hold): a pasted 5 MB log took minutes to parse, and its first 64 symbols and keywords,
# all that is searched, lie near its start. Set by hand.
MAX_TASK_CHARS = 100_000
# A run of path and name characters longer than this is no name or path anyone writes (a
# pasted base64 body, a minified bundle's line): it is read as blanks, so that it gives
# no symbol. Set by hand, above the 255 bytes a file name may have.
MAX_RUN_CHARS = 512
_RUN = r"[\w.~@+/\\:$-]"
_LONG_RUN = re.compile(rf"(?<!{_RUN}){_RUN}{{{MAX_RUN_CHARS + 1},}}")

_BACKTICK = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(
    rf"(?<![\w/\\.-])((?:[\w.-]+/)+[\w.-]+|[\w-]+(?:\.[\w-]+)*\.(?:{_EXT_RE}))(?![\w/-])"
)  # (not the file name of a Windows path, ``C:\src\app\db.py``: _ABSOLUTE_PATH reads it)
# An identifier: a letter or "_", then letters, digits and "_", letters and digits of any
# script, as Python (``str.isidentifier``), Java, Go or Rust have them (``grüße``).
IDENTIFIER = r"[^\W\d]\w*"
# (a file name at the end of a path, ``app.log`` of "/var/log/app.log", is no qualified
# name: trial 39's seeded monolog's ``Logger.log``)
_DOTTED = re.compile(rf"(?<![\w./])({IDENTIFIER}(?:\.{IDENTIFIER})+)(?:\(\))?(?![\w])")
# (a word glued to digits before it is no name: ``th`` of "11th", ``D`` of "3D")
_WORD = re.compile(rf"(?<!\w){IDENTIFIER}")
# prose abbreviations of one-letter parts, each with its dot: "e.g.", "i.e.", "a.k.a."
# (their letters had seeded a definition named ``e`` or ``G``; trial 7)
_ABBREVIATION = re.compile(r"(?<![\w.])(?:[^\W\d_]\.){2,}(?!\w)")
# ``.name`` right after a call's ``)``: a later link of a call chain
_CHAINED = re.compile(rf"\)\.({IDENTIFIER})(?![\w])")
# C++/Rust ``a::b`` and PHP/C ``a->b`` written without blanks, read as ``a.b``; so is a
# JVM nested class ``Outer$Inner`` (a stack frame's ``CodeBlock$Builder.add``): a ``$``
# before a capital, which ``_qualifier_dot`` checks. So are a JavaScript private member's
# ``Ky.#retry`` (its ``#`` is part of the name, which seeds finds either way) and the
# ``Ky#retry`` of Ruby and Javadoc
_QUALIFIER = re.compile(r"(?<=\w)(?:(?:::|->|\.?#)(?=[^\W\d])|\$(?=[^\W\d_]))")
# kebab-case names (``used-before-assignment``): their words are keywords, no part is a symbol
_KEBAB = re.compile(r"-{0,2}[^\W\d_][^\W_]*(?:-[^\W\d_][^\W_]*)+")
# Places in files. A path here may be absolute or carry a scheme (file://, webpack://).
# (it starts where a run of path characters does: from inside one, the run was scanned from
# each of its characters, and a 20,000-character word took 39 s)
_REF_PATH = (r"(?<![\w.~@+/\\-])"
             rf"(?P<path>(?:[a-z][\w+.-]*:/+|[A-Za-z]:)?[\w.~@+/\\-]*\.(?:{_EXT_RE}))")
# Python traceback frame, and the function it names (``<module>``, ``<listcomp>``: none)
_PYTHON_FRAME = re.compile(r'File "(?P<path>[^"\n]+)", line (?P<start>\d+)'
                           rf'(?:, in (?:(?P<function>{IDENTIFIER})|<[\w.-]+>))?')
# JVM stack frame: at com.acme.Codec$Builder.add(Codec.java:246)
_JVM_FRAME = re.compile(rf"(?<![\w$.])(?:[\w$]+\.)+(?P<function>{IDENTIFIER})\((?P<path>[\w$.-]+\."
                        r"(?:java|kt|kts|scala|groovy)):(?P<start>\d+)\)")
# V8 (Node, Chrome) stack frame: at Request._onResponse (/srv/got/core/index.ts:1383:15);
# its receiver (``Request``, ``ClientRequest`` of an ``<anonymous>`` function) is often
# the runtime's class, no name of the repository's (trial 10: got's ``ClientRequest``). A
# getter's or setter's frame says so (``at Object.get value [as value] (...)``: ``get`` was
# a name of the task, trial 14), and a frame of no function, at a line's start, is its
# place alone (``at /srv/app/user.ts:18:25``, ``at async file:///srv/app/main.ts:3:1``)
_V8_FRAME = re.compile(
    rf"(?<![\w$.])at (?:(?:async|new) )?(?:[\w$.]+\.)?(?:[gs]et )?(?P<function>{IDENTIFIER}|<anonymous>)"
    rf"(?: \[as [\w$]+\])? \((?P<path>[^()\s]+?\.(?:{_EXT_RE})):(?P<start>\d+):\d+\)")
# (of a JavaScript or TypeScript file: a Rust frame's place line, ``at ./src/lib.rs:951:9``,
# is written the same way)
# (alone on its line: prose that starts with "at src/parse.ts:74:27 ..." is no frame)
_V8_PLACE_FRAME = re.compile(r"^[ \t]*at (?:async )?(?P<path>(?:[a-z][\w+.-]*:/+)?"
                             r"[\w.~@+/\\-]*\.(?:[cm]?[jt]sx?)):(?P<start>\d+):\d+[ \t]*$",
                             re.MULTILINE)
# The hash a Rust symbol ends with in a full backtrace (``pop::h0123456789abcdef``)
_RUST_HASH = r"::h[0-9a-f]{16}(?!\w)"
# Rust backtrace frame: "   3: walkdir::IntoIter::pop" over "             at ./src/lib.rs:951:9"
# (its qualifiers are taken lazily: greedy, they took ``pop::`` of ``pop::h0123456789abcdef``
# and left the hash as its function); a trait impl's method is qualified by its type and
# trait, ``<Value as IndexMut<I>>::index_mut`` (trial 21: such frames were no frames)
_RUST_FRAME = re.compile(
    rf"^[ \t]*\d+: (?:<[^\n]*>::)?(?:[\w<>]+::)*?(?P<function>{IDENTIFIER})(?:{_RUST_HASH})?[ \t]*\n"
    rf"[ \t]+at (?P<path>[^\s()]+?\.rs):(?P<start>\d+)(?::\d+)?$", re.MULTILINE)
# Go panic frame: "github.com/go-chi/chi/v5.(*Mux).ServeHTTP(0xc0000a2000, ...)" over
# "\t/home/dev/chi/mux.go:90 +0x2e5" (a closure's ".func1" after its function's name)
_GO_FRAME = re.compile(
    rf"^(?:[\w.~/-]+?\.)?(?:\(\*?[\w]+\)\.)?(?P<function>{IDENTIFIER})(?:\.func\d+(?:\.\d+)*)?"
    rf"\([^()\n]*\)[ \t]*\n[ \t]+(?P<path>[^\s()]+?\.go):(?P<start>\d+)(?: \+0x[0-9a-f]+)?[ \t]*$",
    re.MULTILINE)
# A frame of the runtime's own code (``at Object.onceWrapper (node:events:632:28)``,
# ``at process.processTicksAndRejections (node:internal/process/task_queues:95:5)``):
# nothing of it is the repository's, and it is no reference. Where the runtime's frames
# have no mark of their own (.NET, the JVM), they are those of its namespaces: .NET's
# ``System`` and ``Microsoft``; the JDK's ``java``, ``javax``, ``jdk`` and ``sun``, and
# Kotlin's ``kotlin`` and ``kotlinx`` (so a task on those projects' own repositories
# reads their frames as the runtime's: their names seed nothing there either). (Its
# function is one word, not any run of characters up to a "(": scanned from each "at " to
# the line's end, 'at ' * 30000 took 11 s.)
_RUNTIME_FRAME = re.compile(r"(?<![\w$.])at (?:(?:async|new) )?[\w$.<>]+(?: \[as [\w$<>]+\])? "
                            r"\((?:node:|internal/)[^()\n]{0,300}\)"
                            r"|(?<![\w$.])at (?:node:|internal/)\S+"
                            r"|(?<![\w$.])at (?:async )?[\w$.]+ \(index \d+\)"
                            # a Rust frame with no place (``1: core::panicking::panic_fmt``:
                            # a path, so that a numbered list's ``1: parse_config`` stays)
                            r"|^[ \t]*\d+: [\w<>{}]*::[\w:<>{}]+[ \t]*$(?![\n\r]+[ \t]+at )"
                            # (or a bare name followed by such a frame: ``0: rust_begin_unwind``)
                            r"|^[ \t]*\d+: \w+[ \t]*$(?=[\n\r]+[ \t]*\d+: [\w<>{}]*::)"
                            # or in the toolchain's sources (``at /rustc/90b35a6.../
                            # library/core/src/option.rs:1988:5``, as rustc prints them)
                            r"|^[ \t]*\d+: [^\n]*\n[ \t]+at /rustc/[^\n]*"
                            # a .NET frame of the framework's namespaces, with or without
                            # its place (``at System.RuntimeMethodHandle.InvokeMethod(Object
                            # target, ...)``)
                            r"|(?<![\w$.])at (?:System|Microsoft)\.[\w.`<>\[\],]*\([^()\n]*\)"
                            r"(?: in (?:[A-Za-z]:)?[^\n:()]+:line \d+)?"
                            # a JVM frame of the JDK's or Kotlin's own packages, after its
                            # module if any (``at java.base/java.lang.Thread.run(Thread.java:833)``)
                            r"|(?<![\w$.])at (?:[\w.$-]*/)*(?:java|javax|jdk|sun|kotlin|kotlinx)\."
                            r"[\w$.<>]*\([^()\n]*\)"
                            # a native frame in a binary, not a source file (``#8 0x55d0c8a19f24
                            # in _start (/home/dev/hiredis/build/fuzzer+0x2af24)``)
                            r"|^[ \t]*#\d+[ \t]+0x[0-9a-fA-F]+ (?:in \S+ )?\([^()\n]*\+0x[0-9a-fA-F]+\)"
                            # a Swift frame in a binary (``4 [ra] 0x7f8e specialized
                            # Sequence.compactMap<A>(_:) + 320 in libswiftCore.so``), or one
                            # the backtracer marks as the system's (``6 [ra] [system] 0x7f8e
                            # __libc_start_call_main + 128 in libc.so.6``)
                            r"|^[ \t]*\d+(?:[ \t]+\[\w+\])*[ \t]+0x[0-9a-fA-F]+[ \t]+[^\n]*? \+ \d+ in \S+[ \t]*$"
                            r"|^[ \t]*\d+(?:[ \t]+\[ra\])?[ \t]+\[system\][^\n]*"
                            # PHP's frame of a built-in that called back (``#1 [internal
                            # function]: App\Ctl->{closure}(Object(App\Req))``)
                            r"|^[ \t]*#\d+ \[internal function\]:[^\n]*",
                            re.MULTILINE)
_RUST_HASH_SUFFIX = re.compile(_RUST_HASH)
# The parameter list of a .NET frame (``(Object value, Type type)``, ``()``): its types and
# names are the frame's, no names of the task (trial 12: ``String`` seeded ``Some.String``)
_DOTNET_PARAMETERS = re.compile(r"(?<![\w$.])at [\w.`<>\[\],|]+"
                                r"(\((?:[\w.`<>\[\],&*]+ \w+(?:, [\w.`<>\[\],&*]+ \w+)*)?\))")
# .NET stack frame: "at Serilog.Core.Logger.Write(LogEventLevel level, String t) in
# /_/src/Serilog/Core/Logger.cs:line 424" (a generic method's ``Log[TState]``, a type's
# ``Dictionary`2``, a constructor's ``..ctor``, a lambda's ``<Main>b__0_0``, a local
# function's ``<Run>g__Helper|4_0`` and an async method's ``<Main>d__0.MoveNext``, all
# of the function ``Main`` or ``Run`` that holds them, review 31); the place is a
# Windows, Unix or source-link (``/_/``) path. The
# qualified name stays; its parameters, types and names, say nothing of the task.
_DOTNET_FRAME = re.compile(
    r"(?<![\w$.])at (?P<name>(?:(?!<\w+>d__)[\w`<>]+\.)*\.?<?"
    rf"(?P<function>{IDENTIFIER}))(?:>[\w`|]*(?:\.MoveNext)?)?(?:\[[\w, ]*\])?"
    r"\([^()\n]*\) in (?P<path>(?:[A-Za-z]:)?[^\n:()]+\.\w+):line (?P<start>\d+)")
# PHP stack frame: "#0 /srv/Slim/Routing/RouteParser.php(42): Slim\Routing\RouteCollector
# ->getNamedRoute('user')". The place is where the frame called the function it names,
# so the function holding the line is the one the next frame names (``_scan_references``);
# ``Class->method`` stays a name, its namespace and arguments are framing.
_PHP_FRAME = re.compile(
    r"^[ \t]*#(?P<depth>\d+) (?P<path>[^\s()]+?\.php)\((?P<start>\d+)\): (?:[\w\\]*\\)?"
    rf"(?P<name>(?:\w+(?:->|::))?(?P<function>{IDENTIFIER})(?=\())?[^\n]*", re.MULTILINE)
# A native frame, as AddressSanitizer or gdb prints it: "#2 0x55d0c8a2b7c2 in
# processBulkItem /home/dev/hiredis/read.c:503", "#1  0x4005 in main () at test.c:10", and
# gdb's innermost frame, with no address: "#0  foo (x=0x0) at src/foo.c:5". Without the
# address it must have gdb's ``(args) at``: a numbered line of prose, "#2 crash at
# db.py:12", is no frame (review 31). A C++ function with template arguments
# (``a::reader<std::map<...>, ...>::get(int)``, spaces and all) is its ``signature``,
# whose function ``_signature_name`` reads: its template arguments, the ``std::`` names
# among them, and its parameters are no names of the task (trial 13)
_NATIVE_FRAME = re.compile(
    r"^[ \t]*#\d+[ \t]+(?P<address>0x[0-9a-fA-F]+ in )?"
    rf"(?:(?P<name>(?:[\w~]+(?:::|\.))*(?P<function>{IDENTIFIER}))(?:[ \t]*\([^()\n]*\))?"
    r"(?(address)(?:[ \t]+at)?|(?<=\))[ \t]+at)"
    r"|(?(address)(?P<signature>[\w~:]*<[^\n]*?\S)(?:[ \t]+at)?|(?!)))"
    r"[ \t]+(?P<path>[^\s()]+?\.\w+):(?P<start>\d+)(?::\d+)?",
    re.MULTILINE)
# A Swift backtrace's frame, as Swift 5.9's backtracer prints it: "0 0x000055d5c3f2a1b4
# ParsedWrapper.argumentSet(for:) + 180 in mytool at /src/Parsing/Parsed.swift:68:7",
# "1 [ra] 0x... closure #1 in ArgumentSet.init(_:parent:) + 418 in mytool at /src/Parsable
# Types/ParsableArguments.swift:326:25" (a path may hold blanks); its ``signature``'s
# function is ``_signature_name``'s (trial 13: the frames were places of no trace); and as
# a symbolicated macOS crash report has it: "0  MyTool  0x0000000100003f20 Foo.bar() + 32
# (File.swift:68)"
_SWIFT_FRAME = re.compile(
    r"^[ \t]*\d+(?:[ \t]+\[\w+\])*(?:[ \t]+[^\s\[]\S*)?[ \t]+0x[0-9a-fA-F]+[ \t]+"
    r"(?P<signature>[^\n]*?\S) \+ \d+(?: in \S+ at | \()"
    # (a path of at most 4 words: one that might run to the line's end was sought there
    # from each "in m at ", and a line of them took minutes)
    r"(?P<path>(?:[A-Za-z]:)?[^\s:]*(?: [^\s:]+){0,3}?\.\w+):(?P<start>\d+)(?::\d+)?",
    re.MULTILINE)
# A PHP error's place: "PHP Warning:  Undefined variable $x in /srv/a.php on line 42"
_PHP_ERROR = re.compile(_REF_PATH + r" on line (?P<start>\d+)(?!\w)")
# Each trace's frame pattern and its ``Reference.frame``
_FRAME_KINDS = {_PYTHON_FRAME: "python", _JVM_FRAME: "jvm", _V8_FRAME: "v8", _V8_PLACE_FRAME: "v8",
                _RUST_FRAME: "rust", _GO_FRAME: "go", _DOTNET_FRAME: "dotnet",
                _PHP_FRAME: "php", _NATIVE_FRAME: "native", _SWIFT_FRAME: "swift"}
_REFERENCES = (
    _PYTHON_FRAME,
    _JVM_FRAME,
    _V8_FRAME,
    _V8_PLACE_FRAME,
    _RUST_FRAME,
    _GO_FRAME,
    _DOTNET_FRAME,
    _PHP_FRAME,
    _NATIVE_FRAME,
    _SWIFT_FRAME,
    _PHP_ERROR,
    re.compile(_REF_PATH + r"#L(?P<start>\d+)(?:-L?(?P<end>\d+))?(?!\w)"),  # GitHub anchor
    re.compile(_REF_PATH + r":(?P<start>\d+)(?:(?:-|\u2013)(?P<end>\d+)|:(?P<column>\d+))?(?![\w.])"),
    # tsc's and MSBuild's (C#, VB) ``file(line,col):``: ``src/a.ts(1681,40): error TS2345``,
    # ``Program.cs(12,5,14,9): error CS0103`` (a range's end line third); pdb's ``> /srv/
    # app/db.py(12)save()`` (trial 14: tsc's errors were no places). The column and colon,
    # or pdb's function: prose's ``README.md(1)`` or ``fmt.go(2)`` is no place (review 32)
    re.compile(_REF_PATH + r"\((?P<start>\d+),(?P<column>\d+)(?:,(?P<end>\d+),\d+)?\):"),
    re.compile(_REF_PATH + r"\((?P<start>\d+)\)<?[A-Za-z_]\w*>?\(\)"),
)
# A path written from the file system's root (``/srv/app/db.py``, ``~/app/db.py``,
# ``C:\src\app\db.py``), whose leading directories are most often not the repository's
_ABSOLUTE_PATH = re.compile(
    r"(?<![\w/.~:\\-])(?:(?:~|[A-Za-z]:)?/(?:[\w.@+-]+/)*|[A-Za-z]:\\(?:[\w.@+-]+\\)*)"
    rf"[\w@+-][\w.@+-]*\.(?:{_EXT_RE})(?![\w/-])")
# The words a Python traceback, a Rust, Go or PHP panic or a .NET trace is framed by
_TRACEBACK_HEAD = re.compile(r"Traceback \(most recent call last\):?"
                             r"|thread '[^'\n]{0,100}' panicked at|stack backtrace:"
                             r"|goroutine \d+ \[[^\]\n]{0,100}\]:|\[signal [^\]\n]{0,200}\]"
                             r"|exit status \d+"
                             # .NET's and PHP's
                             # (``Stack trace:`` opening a line, ``thrown in`` before a
                             # PHP place: in prose they are words, review 31)
                             r"|--- End of [\w ]{0,80}---|(?m:^)[ \t]*Stack trace:|#\d+ \{main\}"
                             r"|thrown in(?= \S+ on line \d)"
                             r"|PHP (?:Fatal error|Warning|Notice|Deprecated|Parse error): {0,2}(?:Uncaught )?"
                             # Swift's (``Parsed.swift:68: Fatal error: ...``, the
                             # backtracer's ``Program crashed: System trap at 0x55d5`` and
                             # ``Thread 0 "mytool" crashed:``)
                             r"|(?m:^)[ \t]*Fatal error:|(?<=\d: )Fatal error:"
                             r"|Program crashed: [\w ]{0,80}? at 0x[0-9a-fA-F]+"
                             r"|Thread \d+(?: \"[^\"\n]{0,100}\")? [Cc]rashed:"
                             # and a frame's number, binary and address in a macOS crash
                             # report (``4  MyTool  0x0000000100003f20``), and a mangled Swift
                             # name, no name of the source (``$s6MyTool4mainyyF``)
                             r"|(?m:^)[ \t]*\d+[ \t]+[^\s\[]\S*[ \t]+0x[0-9a-fA-F]+"
                             r"|(?<![\w$])_?\$[sS]\d\w*")
# A web address (``https://github.com/o/r/issues/12``, ``www.example.com/a``): it names
# a page outside the repository, and its scheme, host and path are no words of the task
# (trial 38: a link's ``https``, ``github`` and owner words took 980 of 2,000 tokens). One
# whose path ends in a source file's name is a place (a forge's ``.../blob/main/src/a.rs``,
# ``file:///srv/a.py``): its path is a symbol, whose suffix names the repository's file.
_URL = re.compile(r"(?<![\w.+-])(?i:[a-z][a-z0-9+.-]*://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}]")
# (read up to its query or fragment: a ``?file=src/a.py`` names no file of the address's
# own path, and a pattern reading past ``.py#`` to the end took 29 s on a 96,000-character
# address of them)
_QUERY = re.compile(r"[?#]")
_FILE_URL = re.compile(rf"\.(?:{_EXT_RE})$")
_LINES_WORDS = re.compile(r"\blines? (?P<start>\d+)(?:\s*(?:-|\u2013|to)\s*(?P<end>\d+))?", re.IGNORECASE)
_CAMEL_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@dataclass(frozen=True, slots=True)
class Reference:
    """A place in a file the task points at.

    ``path`` is relative, with ``/`` separators, as far as the text allows: an absolute
    prefix (``/srv/app/``, ``C:\\src\\``, ``file:///``) is kept but without its leading
    separator, so whoever resolves it matches the longest suffix that is a repository path.
    Lines are 1-indexed inclusive (``start_line == end_line`` for one line).
    """

    path: str
    start_line: int
    end_line: int
    # the function a stack frame names at this place (``File "x.py", line 3, in get``,
    # ``at a.B.get(B.java:3)``), else ""
    function: str = ""
    # the trace the place is a frame of: "python" (``File "x.py", line 3``), "jvm"
    # (``at a.B.get(B.java:3)``), "v8" (``at B.get (/srv/b.ts:3:9)``), "rust" (``3: b::get``
    # over ``at ./src/b.rs:3:9``), "go" (``b.(*B).Get(...)`` over ``/srv/b.go:3 +0x1d``),
    # "dotnet" (``at B.Get() in /_/src/B.cs:line 3``), "php" (``#0 /srv/B.php(3): B->get()``),
    # "native" (``#2 0x55d0 in get /srv/b.c:3``), "swift" (``0 0x55d5 B.get() + 18 in app at
    # /srv/B.swift:3:7``), else "" (a place written otherwise: ``x.py:3``)
    frame: str = ""


@dataclass(frozen=True, slots=True)
class ParsedTask:
    """A task read for retrieval.

    Attributes
    ----------
    raw : str
        The part of the task that was read: all of it, or its first ``MAX_TASK_CHARS``
        characters up to a blank.
    symbols : tuple of str
        Identifiers, dotted names and paths in order of first appearance, no duplicates.
    keywords : tuple of str
        Lower-case content words (stop words removed, identifiers split), no duplicates.
    intent : Intent
        The first intent found, by the priority fix > remove > add > modify > understand.
    references : tuple of Reference
        Places in files the task points at, no duplicates, nearest the failure first: in
        order of appearance, but a Python traceback's frames ("most recent call last")
        last written first, where the frames of a JVM, JavaScript, Rust or Go trace are
        written innermost first.
    plain_words : tuple of str
        Words of the prose that are neither symbols nor keywords, as written (one- and
        two-letter words and stop words: ``db`` in "fix db", ``get`` in "fix get"), no
        duplicates; outside paths, dotted names and kebab-case compounds.
    cut_from : int or None
        The length of the task as given, in characters, when ``raw`` is only its start.
    addresses : tuple of str
        The symbols that are paths of files in the repository (``seeds.in_repository``
        finds them; empty from ``parse_task``): their directories say where the file is,
        and give no words.
    titled : tuple of str
        Capitalised words written two or more in a row (``Base`` of "XDG Base Directory
        Specification"): a title or a name in the prose, not symbols; a file named after
        one may define it still (``seeds``: cfn-lint's rule ``Value`` in outputs/Value.py
        for "Output Value check").
    places : tuple of str
        The symbols that are the files of stack frames (``home/dev/hiredis/read.c`` of
        ``#2 0x55d0 in processBulkItem /home/dev/hiredis/read.c:503``) or of places written
        with a column, as compilers and linters write them (``--> src/standard.rs:1304:17``;
        trial 16: its words seeded ``SearchMode::Standard``), no duplicates: the place says
        where it is, and they give no words (``seeds.in_repository``).
    """

    raw: str
    symbols: tuple[str, ...]
    keywords: tuple[str, ...]
    intent: Intent
    references: tuple[Reference, ...] = ()
    plain_words: tuple[str, ...] = ()
    titled: tuple[str, ...] = ()
    # the task's length in characters as given when only its start was read, else None
    cut_from: int | None = None
    addresses: tuple[str, ...] = ()
    places: tuple[str, ...] = ()


def split_identifier(identifier: str) -> list[str]:
    """Split an identifier into lower-case words on case changes, digits and underscores.

    Letters of any script count: a letter without case (``数据``) is one as a lower-case
    letter is, and so is a combining mark.

    >>> split_identifier("HTTPAdapter.send_request2")
    ['http', 'adapter', 'send', 'request', '2']
    >>> split_identifier("größeÄndern")
    ['größe', 'ändern']
    """
    if identifier.isascii():  # the pattern takes letters and digits only: one pass will do
        return [w.lower() for w in _CAMEL_SPLIT.findall(identifier)]
    # the same pattern over the characters' classes: U upper, l other letters, 0 digits
    shape = case_shape(identifier)
    return [identifier[m.start():m.end()].lower() for m in _SHAPE_SPLIT.finditer(shape)]


_SHAPE_SPLIT = re.compile(r"U+(?=Ul)|U?l+|U+|0+")


def case_shape(text: str) -> str:
    """``text`` with each character replaced by its class, for the patterns of case
    changes: ``U`` an upper-case (or title-case) letter, ``l`` any other letter or a
    combining mark, ``0`` a decimal digit, ``_`` anything else (same length).

    >>> case_shape("Größe_2")
    'Ullll_0'
    """
    return "".join(_char_class(c) for c in text)


@functools.lru_cache(maxsize=4096)
def _char_class(char: str) -> str:
    if char.isupper() or char.istitle():
        return "U"
    if char.isalpha() or unicodedata.category(char).startswith("M"):
        return "l"
    return "0" if char.isdecimal() else "_"


def is_path_symbol(symbol: str) -> bool:
    """True for a task's symbol that names a file: it holds ``/`` or ends with a known
    source or configuration file extension (``db.py``, ``storage/db``, ``setup.cfg``).

    >>> is_path_symbol("square.js"), is_path_symbol("np.array")
    (True, False)
    """
    return "/" in symbol or symbol.lower().endswith(_PATHLIKE_SUFFIXES)


# Extensions that make a dotted symbol a file name (a narrower list than _CODE_EXTENSIONS:
# ``db.sql`` or ``node.text`` is an attribute as often).
_PATHLIKE_SUFFIXES = (".py", ".pyi", ".go", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".rs",
                      ".java", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".kt",
                      ".swift", ".scala", ".md", ".toml", ".yaml", ".yml", ".json", ".cfg")


def _is_symbol_word(word: str, first: bool) -> bool:
    if "_" in word.strip("_") or (word.startswith("__") and word.endswith("__")):
        return any(c.isalpha() for c in word)
    if _is_camel_case(word.lstrip("_")):  # a private member's leading _ (_parseTail) too
        return True
    if word[0].isupper() and any(c.islower() for c in word):  # PascalCase, Storage, HTTPAdapter
        lower = word.lower()
        if first and (lower in STOP_WORDS or _intent_of_word(lower) is not None):
            return False
        return not (first and lower in _COMMON_FIRST_WORDS)
    return False


def _is_camel_case(word: str) -> bool:
    """``word`` opens with lower-case letters, then a capital (``getItem``, ``größeÄndern``)."""
    if word.isascii():
        return bool(_CAMEL_CASE.fullmatch(word))
    return bool(_CAMEL_SHAPE.match(case_shape(word)))


_CAMEL_CASE = re.compile(r"[a-z]+[A-Z]\w*")
_CAMEL_SHAPE = re.compile(r"l+U")


def _qualifier_dot(match: re.Match[str]) -> str:
    """``.`` for a ``_QUALIFIER`` match: ``::``, ``->``, ``.#`` and ``#``, and ``$``
    before a capital."""
    if match.group(0) == "$" and not match.string[match.end()].isupper():
        return "$"
    # a file's anchor (``app.py#main``, ``gc.html#gc.freeze``) keeps its path whole
    if match.group(0).endswith("#") and _FILE_NAME_END.search(
            match.string, max(0, match.start() - _LONGEST_FILE_NAME_END), match.start()):
        return match.group(0)
    return "."


_FILE_NAME_END = re.compile(rf"\w\.(?:{_EXT_RE})$")
# the most characters ``_FILE_NAME_END`` matches: a name's last character, a dot and the
# longest extension (one fewer missed ``Foo.scala#bar`` and ``App.swift#main``)
_LONGEST_FILE_NAME_END = 2 + max(map(len, _CODE_EXTENSIONS))


# Two or more capitalised words in a row, written apart ("XDG Base Directory
# Specification", "Kubernetes Pod"): a name or a title in the prose, not names of code
# (a name of code with inner capitals, ``DataArray``, is not such a word).
_TITLE_RUN = re.compile(r"(?<![\w.:/-])[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)+(?![\w(/-]|[.:]\w)")
# Capitalised sentence openers that are never code names.
_COMMON_FIRST_WORDS = frozenset("allow support make add use ensure avoid prevent handle "
                                "let return raise set get file".split())


def _intent_of_word(word: str) -> Intent | None:
    for intent, words in _INTENT_WORDS:
        if word in words:
            return intent
    return None


def _detect_intent(text: str) -> Intent:
    lower = text.lower()
    words = set(_WORD.findall(lower))
    for intent, vocabulary in _INTENT_WORDS:
        if intent is Intent.UNDERSTAND:
            break
        if words & vocabulary:
            return intent
    if any(p in lower for p in _UNDERSTAND_PHRASES) or words & _INTENT_WORDS[-1][1]:
        return Intent.UNDERSTAND
    return Intent.GENERAL


def _reference_path(written: str) -> str:
    path = written.replace("\\", "/")
    # file:///, webpack://, C:/, and the /_/ of .NET's source-link paths
    path = re.sub(r"^(?:[a-zA-Z][\w+.-]*:/+|[A-Za-z]:/|/_/)", "", path)
    # (and the ../ of a path relative to a build directory: ``../csu/libc-start.c``)
    return re.sub(r"^(?:\.{0,2}/)+", "", path)


class _Spans:
    """Disjoint half-open spans ``[start, end)`` of a text, kept sorted, so that a task of
    thousands of stack frames is searched in O(n log n), not O(n^2)."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` shares a position with a span added before."""
        at = bisect.bisect_left(self._starts, end)  # spans starting before ``end``
        return at > 0 and self._ends[at - 1] > start

    def add(self, start: int, end: int) -> None:
        """Add ``[start, end)``, which overlaps no span added before."""
        at = bisect.bisect_left(self._starts, start)
        self._starts.insert(at, start)
        self._ends.insert(at, end)


def find_references(text: str) -> list[Reference]:
    """The places in files ``text`` points at (see the module docstring), in order.

    "line 12" or "lines 12-20" belongs to the nearest path written before it, else to
    the first one after it on the same line; without such a path it is no reference.

    >>> find_references('File "/srv/app/routes.py", line 619, in checkout')
    [Reference(path='srv/app/routes.py', start_line=619, end_line=619, function='checkout', frame='python')]
    """
    return [reference for reference, _ in _written_references(text)]


def _written_references(text: str) -> list[tuple[Reference, str]]:
    """``find_references(text)``, each with its path as written in ``text``."""
    return _scan_references(text)[0]


def _scan_references(text: str) -> tuple[list[tuple[Reference, str]], list[tuple[int, int]],
                                         list[tuple[int, int, str]], list[str], set[str]]:
    """``_written_references(text)``, the spans of ``text`` that only frame them (a
    frame's ``File "``, ``", line 619, in <module>``, ``:619:15``, "lines 616-620"),
    the spans of their paths with the path each gives: [start, end) each, in no
    particular order, the qualified names read from frames' signatures, which the
    text does not hold as written (``a.reader.get`` of ``a::reader<std::map<K, V>>::get()``),
    in order, and the paths of places written with a column (``src/a.rs:12:5``,
    ``a.ts(12,5):``: a compiler's or linter's, like a frame's)."""
    found: list[tuple[int, Reference, str]] = []
    columned: set[str] = set()
    names_read: list[tuple[int, str]] = []
    framing: list[tuple[int, int]] = []
    path_spans: list[tuple[int, int, str]] = []
    taken = _Spans()
    php: list[tuple[int, int, str]] = []  # (at in found, depth, function) of each PHP frame
    runtime = [m.span() for m in _RUNTIME_FRAME.finditer(text)]
    for start, end in runtime:
        taken.add(start, end)
    for pattern in _REFERENCES:
        for match in pattern.finditer(text):
            if taken.overlaps(match.start(), match.end()):
                continue
            start = int(match.group("start"))
            end = int(match.group("end") or start) if "end" in pattern.groupindex else start
            path = _reference_path(match.group("path"))
            function = (match.group("function") or "") if "function" in pattern.groupindex else ""
            function = "" if function == "<anonymous>" else function
            signature = match.group("signature") if "signature" in pattern.groupindex else None
            if signature is not None:
                # (a name read from a signature, ``a.reader.get`` of ``a::reader<T>::get()``,
                # is a name of the task; the signature as written frames it)
                qualified = _signature_name(signature)
                function = qualified.rpartition(".")[2]
            frame = _FRAME_KINDS.get(pattern, "")
            if path and start > 0:
                taken.add(match.start(), match.end())
                if "column" in pattern.groupindex and match.group("column"):
                    columned.add(path)
                path_spans.append((*match.span("path"), path))
                if signature is not None and qualified:
                    names_read.append((match.start(), qualified))
                # what is neither the path nor the (qualified) name of its function frames them
                kept = "" if signature is not None else (
                    "name" if "name" in pattern.groupindex and match.group("name") else (
                        "function" if function else ""))
                names = sorted([match.span("path")] + ([match.span(kept)] if kept else []))
                if pattern is _PHP_FRAME:
                    php.append((len(found), int(match.group("depth")), function))
                    function = ""
                found.append((match.start(), Reference(path, start, max(start, end), function,
                                                       frame), match.group("path")))
                # (a JVM or Rust frame's qualified name stays: ``walkdir.IntoIter.pop``)
                at = match.end("path") if pattern in (_JVM_FRAME, _RUST_FRAME) else match.start()
                for name_start, name_end in names:
                    framing.append((at, max(at, name_start)))
                    at = max(at, name_end)
                framing.append((at, match.end()))
    # a PHP frame's line is in the function its caller, the next frame, calls
    for (at, depth, _), (_, caller_depth, caller) in itertools.pairwise(php):
        if caller_depth == depth + 1:
            position, reference, written = found[at]
            found[at] = (position, replace(reference, function=caller), written)
    # (a Rust symbol's hash names nothing: ``h0123456789abcdef`` was a keyword)
    framing += runtime + [m.span() for m in _RUST_HASH_SUFFIX.finditer(text)]
    framing += [m.span(1) for m in _DOTNET_PARAMETERS.finditer(text)]
    # (an absolute path too, whole: its file name alone named any file so called, trial 12)
    paths = sorted([(m.start(), _reference_path(m.group(1)), m.group(1)) for m in _PATH.finditer(text)]
                   + [(m.start(), _reference_path(m.group(0)), m.group(0))
                      for m in _ABSOLUTE_PATH.finditer(text)])
    starts = [at for at, _, _ in paths]
    for match in _LINES_WORDS.finditer(text):
        if taken.overlaps(match.start(), match.start() + 1):
            continue
        # the nearest path before the match, else the first one after it on its line (a
        # parser's "at line 1 column 2" names no file of a stack frame below it)
        before = bisect.bisect_left(starts, match.start())
        after = bisect.bisect_right(starts, match.start())
        near = paths[before - 1] if before else None
        if near is None and after < len(paths) and "\n" not in text[match.end():paths[after][0]]:
            near = paths[after]
        start = int(match.group("start"))
        if near and near[1] and start > 0:
            end = max(start, int(match.group("end") or start))
            found.append((match.start(), Reference(near[1], start, end), near[2]))
            framing.append(match.span())
    found.sort(key=lambda item: item[0])
    firsts: dict[Reference, str] = {}
    for _, reference, written in found:
        firsts.setdefault(reference, written)
    return (list(firsts.items()), framing, path_spans, [name for _, name in sorted(names_read)],
            columned)


def _signature_name(signature: str) -> str:
    """The qualified name (``.`` between its parts) of the function a frame's signature
    names: the last name outside angle brackets before the parameter list, ``""`` when
    there is none. C++'s ``a::reader<std::map<K, V>>::get(int) const`` is ``a.reader.get``,
    ``(anonymous namespace)::f(int)`` is ``f``; Swift's ``closure #1 in
    ArgumentSet.init(_:parent:)`` is ``ArgumentSet.init``.

    >>> _signature_name("a::reader<std::map<K, V>, int>::from<char const*>(char const*&&)")
    'a.reader.from'
    """
    outside: list[str] = []  # the characters outside brackets and parentheses
    depth, before_parameters = 0, None
    for at, char in enumerate(signature):
        if char in "<(":
            if depth == 0 and char == "(" and before_parameters is None and at and \
                    not signature[at - 1].isspace():
                before_parameters = len(outside)
            depth += 1
        elif char in ">)" and depth and signature[at - 1:at] != "-":  # (not Swift's ``->``)
            depth -= 1
            outside.append(" " if char == ")" and not depth else "")
        elif not depth:
            outside.append(char)
    words = "".join(outside[:before_parameters]).split()
    name = words[-1].replace("::", ".").strip(".") if words else ""
    return name if _QUALIFIED_NAME.fullmatch(name) else ""


_QUALIFIED_NAME = re.compile(rf"~?{IDENTIFIER}(?:\.~?{IDENTIFIER})*")


def _nearest_failure_first(references: list[Reference]) -> list[Reference]:
    """``references`` (in text order) with a Python traceback's frames, which it lists
    "most recent call last", in the reverse order among themselves, so that the frame
    nearest the failure comes first, as a JVM, JavaScript, Rust or Go trace writes it."""
    at = [i for i, reference in enumerate(references) if reference.frame == "python"]
    ordered = list(references)
    for i, j in zip(at, reversed(at)):
        ordered[i] = references[j]
    return ordered


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the characters of ``spans`` made blanks (same length, so that the
    positions of the rest stay as they were)."""
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def parse_task(text: str) -> ParsedTask:
    """Parse a task into symbols, keywords and intent, reading its first
    ``MAX_TASK_CHARS`` characters (``raw``; ``cut_from`` says when that was not all), and
    no run of more than ``MAX_RUN_CHARS`` name and path characters.

    Never raises; an empty or blank task gives empty symbols and keywords. Symbols are
    written as in the text, except that ``::`` and ``->`` between names, and ``$`` before
    a nested class, become ``.``.

    >>> t = parse_task("Fix Storage.get crash in storage/db.go")
    >>> t.symbols, t.intent.value
    (('storage/db.go', 'Storage.get'), 'fix')
    """
    raw = _head(text)
    cut_from = len(text) if len(raw) < len(text) else None
    text = _scannable(raw)
    symbols: dict[str, None] = {}  # ordered, with O(1) membership: a pasted log is huge

    def add(symbol: str) -> None:
        symbol = symbol.strip().strip(".,;:!?'\"()")
        if symbol:
            symbols.setdefault(symbol)

    places: dict[str, None] = {}
    written_references, framing, path_spans, names_read, columned = _scan_references(text)
    references = _nearest_failure_first([reference for reference, _ in written_references])
    in_text: dict[str, bool] = {}
    slashes = "/" in text
    for reference, written in written_references:
        # an absolute path's repository part is a symbol too, when the text holds it as
        # such: as part of the path as written, with "/" or "\\" (``src\\app\\db.py:12``,
        # ``C:\\src\\App\\B.cs``: review 31), or elsewhere (a text without "/" need not
        # be searched for it)
        path = reference.path
        if path not in in_text:
            in_text[path] = path in written.replace("\\", "/") or (slashes and path in text)
        if in_text[path]:
            add(path)
            if reference.frame or path in columned:  # (a diagnostic's place, as a frame's)
                places.setdefault(path)
    for name in names_read:
        add(name)
    # An absolute path is one symbol without its root (``srv/app/db.py``), which names
    # the longest repository path it ends with; its words are those of that part only
    # (``seeds`` reads it so), never keywords. So are the paths of references, and the
    # words that frame references (``File``, ``line``, ``in <module>``) are nothing.
    referenced = _Spans()
    for start, end, _ in sorted(path_spans):
        referenced.add(start, end)
    # (none in what frames references: a runtime frame's ``/rustc/.../option.rs``)
    absolute = [m for m in _ABSOLUTE_PATH.finditer(_blank(text, framing))
                if not referenced.overlaps(*m.span())]
    for match in absolute:
        add(_reference_path(match.group(0)).removeprefix("~/"))
    framing += [m.span() for m in _TRACEBACK_HEAD.finditer(text)] + [m.span() for m in absolute]
    framing += [m.span() for m in _ABBREVIATION.finditer(text)]
    for match in _URL.finditer(text):
        if not referenced.overlaps(*match.span()):
            framing.append(match.span())
            address = _QUERY.split(match.group(0), maxsplit=1)[0]
            if _FILE_URL.search(address):
                add(_reference_path(address))
    words_text = _blank(text, framing + [(start, end) for start, end, _ in path_spans])
    # (a reference's path gives no second symbol of its file name, ``db.py``: nor one written
    # with "\", no symbol, whose file name named any file so called, trial 12)
    rest = _QUALIFIER.sub(_qualifier_dot, words_text)
    for match in _BACKTICK.finditer(rest):
        inner = match.group(1).strip()
        for piece in inner.split():
            if _KEBAB.fullmatch(piece.strip(".,;:!?'\"()")):
                continue
            if _PATH.fullmatch(piece) or _WORD.fullmatch(piece) or _DOTTED.fullmatch(piece):
                add(piece.removesuffix("()"))
            elif m := _DOTTED.search(piece) or _WORD.search(piece):
                add(m.group(0).removesuffix("()"))
    rest = _BACKTICK.sub(lambda m: " " + m.group(1) + " ", rest)
    for match in _PATH.finditer(rest):
        add(match.group(1))
    rest = _PATH.sub(" ", rest)
    for match in _DOTTED.finditer(rest):
        add(match.group(1))
    # a call chain's later links are names too: ``email`` of ``z.string().email()``,
    # a member of what ``string()`` returns (so not ``z.string.email``)
    for match in _CHAINED.finditer(rest):
        add(match.group(1))
    rest = _DOTTED.sub(" ", rest)
    titles: dict[str, None] = {}
    title_starts: set[int] = set()
    for run in _TITLE_RUN.finditer(rest):
        words = [(run.start() + m.start(), m.group(0)) for m in _WORD.finditer(run.group(0))]
        (at, opener), *_ = words
        if _starts_sentence(rest, at) and not _is_symbol_word(opener, True):
            words = words[1:]  # ("Fix Storage bug": the verb's capital is the sentence's)
        if len(words) > 1:
            title_starts.update(at for at, _ in words)
    first = True
    for match in _WORD.finditer(rest):
        word = match.group(0)
        # "first" means first word of a sentence, where capitals carry no meaning
        first = _starts_sentence(rest, match.start())
        if _is_symbol_word(word, first):
            if match.start() in title_starts:
                titles.setdefault(word)
            else:
                add(word)

    framed = set(_WORD.findall(words_text))  # (a drive letter "C" is no plain word)
    plain = [w for w in _WORD.findall(_KEBAB.sub(" ", rest))
             if not w.isdigit() and w not in symbols and (len(w) < 3 or w.lower() in STOP_WORDS)
             and w in framed]
    keywords: dict[str, None] = {}
    for word in _WORD.findall(words_text):
        for part in [word.lower()] + split_identifier(word):
            if part.isdigit():
                continue
            if len(part) < 3 or part in STOP_WORDS or part in keywords:
                continue
            if "_" in part:
                continue
            keywords.setdefault(part)
    return ParsedTask(raw=raw, symbols=tuple(symbols), keywords=tuple(keywords),
                      titled=tuple(w for w in titles if w not in symbols),
                      intent=_detect_intent(text), references=tuple(references),
                      plain_words=tuple(dict.fromkeys(plain))[:MAX_TASK_KEYWORDS],
                      cut_from=cut_from, places=tuple(places))


def _head(text: str) -> str:
    """The part of a task that is read: all of it, or its first ``MAX_TASK_CHARS``
    characters, cut at the last word boundary among them (a blank on either side) when
    one lies in the last ``MAX_RUN_CHARS`` (so that no word is cut in two): a task whose
    first ``MAX_TASK_CHARS`` characters end with a blank is read to them."""
    if len(text) <= MAX_TASK_CHARS:
        return text
    cut = MAX_TASK_CHARS
    while cut > MAX_TASK_CHARS - MAX_RUN_CHARS and not _boundary(text, cut):
        cut -= 1
    return text[:cut if _boundary(text, cut) else MAX_TASK_CHARS]


def _boundary(text: str, at: int) -> bool:
    """Whether cutting ``text`` before ``text[at]`` cuts no word in two."""
    return text[at].isspace() or text[at - 1].isspace()


def _scannable(text: str) -> str:
    """``text`` as the patterns read it: each run of more than ``MAX_RUN_CHARS`` name and
    path characters made blanks, and a blank put where a letter without case (Chinese,
    Japanese) meets a cased letter, a digit or ``_``: ``Storageのsaveが失敗する`` names
    ``Storage`` and ``save`` (a task's prose runs into the names it holds)."""
    text = _LONG_RUN.sub(lambda m: " " * len(m.group(0)), text)
    if text.isascii():
        return text
    return _WORD_RUN.sub(_separate_caseless, text)


_WORD_RUN = re.compile(r"\w+")


def _separate_caseless(match: re.Match[str]) -> str:
    run = match.group(0)
    if run.isascii():
        return run
    pieces, start = [], 0
    for at in range(1, len(run)):
        if _caseless(run[at]) != _caseless(run[at - 1]) and not _is_mark(run[at]):
            pieces.append(run[start:at])
            start = at
    return " ".join([*pieces, run[start:]])


@functools.lru_cache(maxsize=4096)
def _caseless(char: str) -> bool:
    """A letter with no case (``的``, ``の``), or a mark on one."""
    return char.isalpha() and not (char.isupper() or char.islower() or char.istitle())


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def _starts_sentence(text: str, start: int) -> bool:
    """Whether the word at ``text[start]`` opens a sentence: it begins the text, or follows
    one of ``.!?:`` or a line break with only white space between; a step back over that
    white space only, not a copy of the text before it."""
    at = start - 1
    while at >= 0 and text[at].isspace():
        if text[at] in "\n\r":
            return True
        at -= 1
    return at < 0 or text[at] in ".!?:"


def limit_task(parsed: ParsedTask, *, max_symbols: int = MAX_TASK_SYMBOLS,
               max_keywords: int = MAX_TASK_KEYWORDS) -> tuple[ParsedTask, str | None]:
    """``parsed`` with at most the first ``max_symbols`` symbols and ``max_keywords``
    keywords (a huge task, such as a pasted log, otherwise makes every lookup slow and
    every match weak), and a note saying what was cut, or None when nothing was (a task
    longer than ``MAX_TASK_CHARS``, of which ``parse_task`` read only the start, counts
    as cut)."""
    cut = []
    if parsed.cut_from is not None:
        cut.append(f"the first {len(parsed.raw):,} of {parsed.cut_from:,} characters")
    if len(parsed.symbols) > max_symbols:
        cut.append(f"the first {max_symbols} of {len(parsed.symbols)} symbols")
    if len(parsed.keywords) > max_keywords:
        cut.append(f"the first {max_keywords} of {len(parsed.keywords)} keywords")
    if not cut:
        return parsed, None
    limited = ParsedTask(raw=parsed.raw, symbols=parsed.symbols[:max_symbols],
                         keywords=parsed.keywords[:max_keywords], intent=parsed.intent,
                         references=parsed.references[:max_symbols],
                         plain_words=parsed.plain_words, cut_from=parsed.cut_from,
                         places=parsed.places)
    return limited, "task cut: searched " + " and ".join(cut)
