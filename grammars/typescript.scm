; inherits: ecma
; Tag query for TypeScript, written for ctxopt (see README.md for the capture contract).

(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
(function_signature name: (identifier) @name.definition.function) @definition.function
(class_declaration name: (type_identifier) @name.definition.class) @definition.class
(abstract_class_declaration name: (type_identifier) @name.definition.class) @definition.class
(interface_declaration name: (type_identifier) @name.definition.interface) @definition.interface
(type_alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
; enum members (`enum`, `const enum`, `declare enum`): `Red`, `Green = 2`, `"Blue"`
(enum_body name: (property_identifier) @name.definition.constant @definition.constant)
(enum_body name: (string (string_fragment) @name.definition.constant) @definition.constant)
(enum_body (enum_assignment name: (property_identifier) @name.definition.constant) @definition.constant)
(enum_body (enum_assignment name: (string (string_fragment) @name.definition.constant)) @definition.constant)
(internal_module name: [(identifier) (nested_identifier)] @name.definition.namespace) @definition.namespace
(module name: [(identifier) (nested_identifier)] @name.definition.namespace) @definition.namespace
(method_definition name: [(property_identifier) (private_property_identifier)] @name.definition.method) @definition.method
(abstract_method_signature name: (property_identifier) @name.definition.method) @definition.method
(interface_body (method_signature name: (property_identifier) @name.definition.method) @definition.method)
(interface_body (property_signature name: (property_identifier) @name.definition.field) @definition.field)
(public_field_definition name: (property_identifier) @name.definition.method
  value: [(arrow_function) (function_expression)]) @definition.method
(public_field_definition name: (property_identifier) @name.definition.field) @definition.field

; const f = () => ..., const g = function () {...}, const C = class {...}
(lexical_declaration (variable_declarator name: (identifier) @name.definition.function
  value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration (variable_declarator name: (identifier) @name.definition.function
  value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(lexical_declaration (variable_declarator name: (identifier) @name.definition.class
  value: (class))) @definition.class
(program (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: [(object) (array) (string) (number) (template_string) (regex) (true) (false) (new_expression) (member_expression) (identifier) (binary_expression) (as_expression)])) @definition.constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: [(object) (array) (string) (number) (template_string) (regex) (true) (false) (new_expression) (member_expression) (identifier) (binary_expression) (as_expression)]))) @definition.constant)

; the same constants inside a namespace (`namespace Palette { export const primary = "red" }`)
(internal_module body: (statement_block (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: [(object) (array) (string) (number) (template_string) (regex) (true) (false) (new_expression) (member_expression) (identifier) (binary_expression) (as_expression) (call_expression)])) @definition.constant))
(internal_module body: (statement_block (export_statement (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: [(object) (array) (string) (number) (template_string) (regex) (true) (false) (new_expression) (member_expression) (identifier) (binary_expression) (as_expression) (call_expression)]))) @definition.constant))

; a module-level constant holding a call's result, but not `const x = require("x")`
(program (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: (call_expression function: (_) @_callee))) @definition.constant
  (#not-eq? @_callee "require"))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: (call_expression function: (_) @_callee)))) @definition.constant
  (#not-eq? @_callee "require"))

(extends_clause value: (identifier) @name.reference.inherit)
(extends_clause value: (member_expression property: (property_identifier) @name.reference.inherit))
(implements_clause (type_identifier) @name.reference.inherit)
(implements_clause (generic_type name: (type_identifier) @name.reference.inherit))
(extends_type_clause type: (generic_type name: (type_identifier) @name.reference.inherit))
(extends_type_clause type: (type_identifier) @name.reference.inherit)
(type_identifier) @name.reference.type
