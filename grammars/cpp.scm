; inherits: c
; Tag query for C++: the C query plus classes, namespaces and methods, written for ctxopt.
; A method defined out of line (`std::string Storage::get(...) const {...}`) is captured
; with its qualified name; the indexer splits `Storage::get` into scope and name.

(function_definition declarator: [
  (function_declarator declarator: [(field_identifier) (qualified_identifier) (destructor_name) (operator_name) (operator_cast) (template_function)] @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function
(function_definition declarator: [
  (operator_cast) @name.definition.function
  (qualified_identifier name: (operator_cast)) @name.definition.function]) @definition.function
(field_declaration declarator: [
  (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name) (operator_cast)] @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name.definition.function))
  (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function
(declaration_list (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  ]) @definition.function)
(translation_unit (declaration declarator: [
  (function_declarator declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name.definition.function)
  (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function)
(declaration_list (declaration declarator: [
  (function_declarator declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name.definition.function)
  (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function)
(preproc_ifdef (declaration declarator: [
  (function_declarator declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name.definition.function)
  (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function)
(preproc_if (declaration declarator: [
  (function_declarator declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name.definition.function)
  (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function)
(preproc_else (declaration declarator: [
  (function_declarator declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name.definition.function)
  (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier) (operator_name)] @name.definition.function))
  ]) @definition.function)

; constructors declared in the class (a macro call in a class body looks the same, so the
; name must be the class's)
(class_specifier name: (type_identifier) @_class body: (field_declaration_list
  (declaration declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function)
  (#eq? @_class @name.definition.function))
(struct_specifier name: (type_identifier) @_class body: (field_declaration_list
  (declaration declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function)
  (#eq? @_class @name.definition.function))

(class_specifier name: [(type_identifier) (qualified_identifier) (template_type)] @name.definition.class body: (_)) @definition.class
(struct_specifier name: [(qualified_identifier) (template_type)] @name.definition.struct body: (_)) @definition.struct
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name.definition.namespace) @definition.namespace
(alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(concept_definition name: (identifier) @name.definition.type) @definition.type

(field_declaration_list (field_declaration declarator: (reference_declarator (field_identifier) @name.definition.field)) @definition.field)
(namespace_definition body: (declaration_list (declaration declarator: [
  (identifier) @name.definition.variable
  (init_declarator declarator: (identifier) @name.definition.variable)
  ]) @definition.variable))

; a qualified or templated callee is captured whole (`a::b::c`, `std::chrono::duration_cast<T>`,
; `x::y<int>::z`): the indexer keeps the name after the last `::`, without template arguments
(call_expression function: [(qualified_identifier) (template_function)] @name.reference.call)
(call_expression function: (field_expression field: (template_method name: (field_identifier) @name.reference.call)))
(new_expression type: (type_identifier) @name.reference.call)
(base_class_clause (type_identifier) @name.reference.inherit)
(base_class_clause (qualified_identifier name: (type_identifier) @name.reference.inherit))
(base_class_clause (template_type name: (type_identifier) @name.reference.inherit))
(qualified_identifier scope: (namespace_identifier) @name.reference.type
  (#match? @name.reference.type "^[A-Z]"))
