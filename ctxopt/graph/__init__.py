"""The symbol graph's rules, pure: how uses resolve to definitions and group into edges.

``rules``: resolution of a name, owners of methods declared out of line, edge grouping,
test files. The stored index (``ctxopt.store``) applies them to its rows.
"""
