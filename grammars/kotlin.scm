; Tag query for Kotlin, written for ctxopt (see README.md for the capture contract).
; An extension function `fun Storage.size()` is a method of its receiver type, and an
; extension property `val Storage.empty` a field of it: @scope names it, giving
; `Storage.size`. A companion object is a class in its class; unnamed, it is `Companion`
; (Kotlin's name for it: `Money.Companion.parse`), captured on its `companion` keyword
; when no name follows `object` (a supertype or no body may: `companion object : F<M> {`).

(function_declaration receiver: (receiver_type [
    (user_type . (type_identifier) @scope)
    (nullable_type (user_type . (type_identifier) @scope))])
  (simple_identifier) @name.definition.method) @definition.method
(function_declaration (simple_identifier) @name.definition.function) @definition.function
(class_declaration "interface" (type_identifier) @name.definition.interface) @definition.interface
(class_declaration "enum" (type_identifier) @name.definition.enum) @definition.enum
(class_declaration (type_identifier) @name.definition.class) @definition.class
(object_declaration (type_identifier) @name.definition.class) @definition.class
(companion_object (type_identifier) @name.definition.class) @definition.class
(companion_object "companion" @name.definition.class
  (#not-match? @definition.class "^[^{]*companion\\s+object\\s+[A-Za-z_`]")) @definition.class
(type_alias (type_identifier) @name.definition.type) @definition.type
(property_declaration receiver: (receiver_type [
    (user_type . (type_identifier) @scope)
    (nullable_type (user_type . (type_identifier) @scope))])
  (variable_declaration (simple_identifier) @name.definition.field)) @definition.field
(source_file (property_declaration (variable_declaration (simple_identifier) @name.definition.variable)) @definition.variable)
(class_body (property_declaration (variable_declaration (simple_identifier) @name.definition.field)) @definition.field)
(class_parameter (binding_pattern_kind) (simple_identifier) @name.definition.field) @definition.field
(enum_entry (simple_identifier) @name.definition.constant) @definition.constant

(call_expression (simple_identifier) @name.reference.call)
(call_expression (navigation_expression (navigation_suffix (simple_identifier) @name.reference.call) .))
(navigation_expression . (simple_identifier) @name.reference.reference
  (#match? @name.reference.reference "^[A-Z]"))
(delegation_specifier (user_type (type_identifier) @name.reference.inherit .))
(delegation_specifier (constructor_invocation (user_type (type_identifier) @name.reference.inherit .)))
(user_type (type_identifier) @name.reference.type)

(import_header (identifier) @name.reference.import)
