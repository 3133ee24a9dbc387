; Tag query for Go, written for ctxopt (see README.md for the capture contract).

(function_declaration name: (identifier) @name.definition.function) @definition.function

; Methods: @scope names the receiver's type, so the method becomes Type.Method.
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @scope
    (pointer_type (type_identifier) @scope)
    (generic_type type: (type_identifier) @scope)
    (pointer_type (generic_type type: (type_identifier) @scope))
    (parenthesized_type [(type_identifier) @scope (generic_type type: (type_identifier) @scope)
      (pointer_type [(type_identifier) @scope (generic_type type: (type_identifier) @scope)])])
    (pointer_type (parenthesized_type [(type_identifier) @scope (generic_type type: (type_identifier) @scope)]))]))
  name: (field_identifier) @name.definition.method) @definition.method

; A declaration holding one spec spans the whole declaration (with its `type` keyword);
; in a group, `type ( A struct{}; B int )`, each spec spans itself (the widest capture of a
; name wins, so the first pattern of each pair applies only to a lone spec).
(type_declaration . (type_spec name: (type_identifier) @name.definition.struct type: (struct_type)) .) @definition.struct
(type_declaration (type_spec name: (type_identifier) @name.definition.struct type: (struct_type)) @definition.struct)
(type_declaration . (type_spec name: (type_identifier) @name.definition.interface type: (interface_type)) .) @definition.interface
(type_declaration (type_spec name: (type_identifier) @name.definition.interface type: (interface_type)) @definition.interface)
(type_declaration . (type_spec name: (type_identifier) @name.definition.type type: [
  (type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type)
  (function_type) (channel_type) (generic_type) (parenthesized_type)]) .) @definition.type
(type_declaration (type_spec name: (type_identifier) @name.definition.type type: [
  (type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type)
  (function_type) (channel_type) (generic_type) (parenthesized_type)]) @definition.type)
(type_declaration . (type_alias name: (type_identifier) @name.definition.type) .) @definition.type
(type_declaration (type_alias name: (type_identifier) @name.definition.type) @definition.type)
(source_file (const_declaration . (const_spec name: (identifier) @name.definition.constant) .) @definition.constant)
(source_file (const_declaration (const_spec name: (identifier) @name.definition.constant) @definition.constant))
(source_file (var_declaration . (var_spec name: (identifier) @name.definition.variable) .) @definition.variable)
(source_file (var_declaration (var_spec name: (identifier) @name.definition.variable) @definition.variable))
(source_file (var_declaration (var_spec_list . (var_spec name: (identifier) @name.definition.variable) .)) @definition.variable)
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name.definition.variable) @definition.variable)))
; fields of declared struct types (and of structs nested in their fields), not of the
; anonymous structs of table-driven tests (`tests := []struct{ args []string }{...}`)
(type_spec type: (struct_type (field_declaration_list (field_declaration name: (field_identifier) @name.definition.field) @definition.field)))
(field_declaration type: (struct_type (field_declaration_list (field_declaration name: (field_identifier) @name.definition.field) @definition.field)))
(method_elem name: (field_identifier) @name.definition.method) @definition.method

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (selector_expression field: (field_identifier) @name.reference.call))
(composite_literal type: (type_identifier) @name.reference.type)
(type_identifier) @name.reference.type
(qualified_type name: (type_identifier) @name.reference.type)
(field_declaration_list (field_declaration !name type: (type_identifier) @name.reference.inherit))
(field_declaration_list (field_declaration !name type: (pointer_type (type_identifier) @name.reference.inherit)))
(selector_expression field: (field_identifier) @name.reference.reference)

(import_spec path: (interpreted_string_literal) @name.reference.import)
