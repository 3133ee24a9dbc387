; Tag query for Python, written for ctxopt (see README.md for the capture contract).

; Definitions. A decorated definition spans its decorators; the plain pattern also matches
; the inner node and the indexer keeps the outermost span for one name.
(decorated_definition
  definition: (class_definition name: (identifier) @name.definition.class)) @definition.class
(decorated_definition
  definition: (function_definition name: (identifier) @name.definition.function)) @definition.function
(class_definition name: (identifier) @name.definition.class) @definition.class
(function_definition name: (identifier) @name.definition.function) @definition.function

; Module-level and class-level assignments: NAME = ..., name: T = ...
(module (assignment left: (identifier) @name.definition.variable) @definition.variable)
(class_definition body: (block (assignment left: (identifier) @name.definition.field) @definition.field))

; References.
(call function: (identifier) @name.reference.call)
(call function: (attribute attribute: (identifier) @name.reference.call))
(class_definition superclasses: (argument_list (identifier) @name.reference.inherit))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name.reference.inherit)))
(type (identifier) @name.reference.type)
(type (attribute attribute: (identifier) @name.reference.type))
(decorator (identifier) @name.reference.call)
(decorator (attribute attribute: (identifier) @name.reference.call))
(attribute attribute: (identifier) @name.reference.reference)

; Imports: the module as written; "from m import a" also names m.a.
(import_statement name: (dotted_name) @name.reference.import)
(import_statement name: (aliased_import name: (dotted_name) @name.reference.import))
(import_from_statement module_name: (_) @name.reference.import)
(import_from_statement name: (dotted_name) @name.reference.import_member)
(import_from_statement name: (aliased_import name: (dotted_name) @name.reference.import_member))

; Names passed as values: `pytest.raises(StorageError)`, `map(parse, rows)`.
(argument_list (identifier) @name.reference.reference)
(keyword_argument value: (identifier) @name.reference.reference)
