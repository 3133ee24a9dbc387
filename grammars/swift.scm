; Tag query for Swift, written for ctxopt (see README.md for the capture contract).
; Members of `extension Storage { ... }` are members of Storage: @scope names the extended
; type (the extension itself is not a definition).

(class_declaration declaration_kind: "extension"
  name: (user_type . (type_identifier) @scope)
  body: (class_body [
    (function_declaration name: (simple_identifier) @name.definition.method) @definition.method
    (function_declaration name: [(custom_operator) "==" "!=" "<" ">" "<=" ">=" "+" "-" "*" "/" "%"
      "&&" "||" "!" "..." "..<" "+=" "-="] @name.definition.method) @definition.method
    (init_declaration "init" @name.definition.method) @definition.method
    (property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.field)) @definition.field
    (class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name.definition.class) @definition.class
    (class_declaration declaration_kind: "struct" name: (type_identifier) @name.definition.struct) @definition.struct
    (class_declaration declaration_kind: "enum" name: (type_identifier) @name.definition.enum) @definition.enum
    (typealias_declaration name: (type_identifier) @name.definition.type) @definition.type]))
(class_declaration declaration_kind: "struct" name: (type_identifier) @name.definition.struct) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name.definition.enum) @definition.enum
(class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name.definition.class) @definition.class
(protocol_declaration name: (type_identifier) @name.definition.interface) @definition.interface
(function_declaration name: (simple_identifier) @name.definition.function) @definition.function
; operator implementations: `static func ==(lhs: A, rhs: A) -> Bool` (the grammar also gives
; the return type the field name `name`, so the operator tokens are listed)
(function_declaration name: [(custom_operator) "==" "!=" "<" ">" "<=" ">=" "+" "-" "*" "/" "%"
  "&&" "||" "!" "..." "..<" "+=" "-="] @name.definition.function) @definition.function
(protocol_function_declaration name: (simple_identifier) @name.definition.method) @definition.method
(init_declaration "init" @name.definition.method) @definition.method
(deinit_declaration "deinit" @name.definition.method) @definition.method
(subscript_declaration "subscript" @name.definition.method) @definition.method
(typealias_declaration name: (type_identifier) @name.definition.type) @definition.type
(associatedtype_declaration name: (type_identifier) @name.definition.type) @definition.type
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.field)) @definition.field)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.field)) @definition.field)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name.definition.variable)) @definition.variable)
(enum_entry name: (simple_identifier) @name.definition.constant) @definition.constant

(call_expression (simple_identifier) @name.reference.call)
(call_expression (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name.reference.call)))
(navigation_expression target: (simple_identifier) @name.reference.reference
  (#match? @name.reference.reference "^[A-Z]"))
(inheritance_specifier inherits_from: (user_type (type_identifier) @name.reference.inherit))
(user_type (type_identifier) @name.reference.type)

(import_declaration (identifier) @name.reference.import)
