; Tag query for Rust, written for ctxopt (see README.md for the capture contract).
; Functions in `impl Type` and `impl Trait for Type` blocks are methods of Type: @scope
; names it, so they become `Type.method` (the impl block itself is not a definition).
; A reference (`for &mut Deserializer<R>`) is the type it refers to, as the bare type is.

(impl_item type: [
    (type_identifier) @scope
    (generic_type type: (type_identifier) @scope)
    (scoped_type_identifier name: (type_identifier) @scope)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @scope))
    (reference_type type: (type_identifier) @scope)
    (reference_type type: (generic_type type: (type_identifier) @scope))
    (reference_type type: (scoped_type_identifier name: (type_identifier) @scope))
    (reference_type type: (generic_type type: (scoped_type_identifier name: (type_identifier) @scope)))]
  body: (declaration_list [
    (function_item name: (identifier) @name.definition.method) @definition.method
    (const_item name: (identifier) @name.definition.constant) @definition.constant
    (type_item name: (type_identifier) @name.definition.type) @definition.type]))
(function_item name: (identifier) @name.definition.function) @definition.function
(function_signature_item name: (identifier) @name.definition.function) @definition.function
(struct_item name: (type_identifier) @name.definition.struct) @definition.struct
(union_item name: (type_identifier) @name.definition.struct) @definition.struct
(enum_item name: (type_identifier) @name.definition.enum) @definition.enum
(trait_item name: (type_identifier) @name.definition.trait) @definition.trait
(type_item name: (type_identifier) @name.definition.type) @definition.type
(associated_type name: (type_identifier) @name.definition.type) @definition.type
(mod_item name: (identifier) @name.definition.module body: (_)) @definition.module
(const_item name: (identifier) @name.definition.constant) @definition.constant
(static_item name: (identifier) @name.definition.variable) @definition.variable
(macro_definition name: (identifier) @name.definition.macro) @definition.macro
; enum variants (unit, tuple and struct); a struct variant's fields nest in the variant
(enum_variant name: (identifier) @name.definition.constant) @definition.constant
(field_declaration_list (field_declaration name: (field_identifier) @name.definition.field) @definition.field)

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (scoped_identifier name: (identifier) @name.reference.call))
(call_expression function: (generic_function function: (identifier) @name.reference.call))
(call_expression function: (generic_function function: (field_expression field: (field_identifier) @name.reference.call)))
(call_expression function: (generic_function function: (scoped_identifier name: (identifier) @name.reference.call)))
(call_expression function: (scoped_identifier path: (identifier) @name.reference.reference))
(macro_invocation macro: (identifier) @name.reference.call)
(struct_expression name: (type_identifier) @name.reference.call)
(struct_expression name: (scoped_type_identifier name: (type_identifier) @name.reference.call))
(impl_item trait: (type_identifier) @name.reference.inherit)
(impl_item trait: (generic_type type: (type_identifier) @name.reference.inherit))
(impl_item trait: (scoped_type_identifier name: (type_identifier) @name.reference.inherit))
(trait_item bounds: (trait_bounds (type_identifier) @name.reference.inherit))
(type_identifier) @name.reference.type

; Imports: `mod codec;` names a file; `use` paths are kept as written (`crate::codec::Decoder`).
(mod_item !body name: (identifier) @name.reference.import)
(use_declaration argument: (scoped_identifier) @name.reference.import)
(use_declaration argument: (identifier) @name.reference.import)
(use_declaration argument: (use_as_clause path: (_) @name.reference.import))
(use_declaration argument: (scoped_use_list path: (_) @name.reference.import))
(use_declaration argument: (use_wildcard (_) @name.reference.import))
