; Tag query for Scala, written for ctxopt (see README.md for the capture contract).
; An `object` is a class-like definition; members of a companion object are qualified by
; its name (`Storage.create`). Scala 3 `extension (s: T)` methods are methods of T.

(extension_definition
  parameters: (parameters (parameter type: [(type_identifier) @scope (generic_type type: (type_identifier) @scope)]))
  body: [
    (function_definition name: [(identifier) (operator_identifier)] @name.definition.method) @definition.method
    (_ (function_definition name: [(identifier) (operator_identifier)] @name.definition.method) @definition.method)])
(class_definition name: (identifier) @name.definition.class) @definition.class
(object_definition name: (identifier) @name.definition.class) @definition.class
(trait_definition name: (identifier) @name.definition.trait) @definition.trait
(enum_definition name: (identifier) @name.definition.enum) @definition.enum
; Scala 3 enum cases: `case Circle, Rect` and `case Rect(w: Double)`
(simple_enum_case name: (identifier) @name.definition.constant) @definition.constant
(full_enum_case name: (identifier) @name.definition.constant) @definition.constant
; operators are methods too: `def ++(other: OParser[_, C])`
(function_definition name: [(identifier) (operator_identifier)] @name.definition.function) @definition.function
(function_declaration name: [(identifier) (operator_identifier)] @name.definition.function) @definition.function
(type_definition name: (type_identifier) @name.definition.type) @definition.type
(template_body (val_definition pattern: (identifier) @name.definition.field) @definition.field)
(template_body (var_definition pattern: (identifier) @name.definition.field) @definition.field)
(template_body (val_declaration name: (identifier) @name.definition.field) @definition.field)
(compilation_unit (val_definition pattern: (identifier) @name.definition.variable) @definition.variable)
(class_parameter name: (identifier) @name.definition.field) @definition.field

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (identifier) @name.reference.call))
(generic_function function: (identifier) @name.reference.call)
(instance_expression (type_identifier) @name.reference.call)
(field_expression value: (identifier) @name.reference.reference
  (#match? @name.reference.reference "^[A-Z]"))
(extends_clause (type_identifier) @name.reference.inherit)
(extends_clause (generic_type type: (type_identifier) @name.reference.inherit))
(type_identifier) @name.reference.type

(import_declaration) @name.reference.import
