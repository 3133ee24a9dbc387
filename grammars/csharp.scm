; Tag query for C#, written for ctxopt (see README.md for the capture contract).
; Attributes sit inside a declaration's node, so they fall inside its span.

(namespace_declaration name: (_) @name.definition.namespace) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name.definition.namespace) @definition.namespace
(class_declaration name: (identifier) @name.definition.class) @definition.class
(record_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(struct_declaration name: (identifier) @name.definition.struct) @definition.struct
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(delegate_declaration name: (identifier) @name.definition.type) @definition.type
(method_declaration name: (identifier) @name.definition.method) @definition.method
(constructor_declaration name: (identifier) @name.definition.method) @definition.method
(destructor_declaration name: (identifier) @name.definition.method) @definition.method
(local_function_statement name: (identifier) @name.definition.function) @definition.function
(property_declaration name: (identifier) @name.definition.field) @definition.field
(event_declaration name: (identifier) @name.definition.field) @definition.field
(declaration_list (field_declaration (modifier) @_const (variable_declaration (variable_declarator
  name: (identifier) @name.definition.constant)) (#eq? @_const "const")) @definition.constant)
(declaration_list (field_declaration (variable_declaration (variable_declarator name: (identifier) @name.definition.field))) @definition.field)
(enum_member_declaration name: (identifier) @name.definition.constant) @definition.constant

(invocation_expression function: (identifier) @name.reference.call)
(invocation_expression function: (member_access_expression name: (identifier) @name.reference.call))
(invocation_expression function: (generic_name (identifier) @name.reference.call))
(invocation_expression function: (member_access_expression name: (generic_name (identifier) @name.reference.call)))
(object_creation_expression type: (identifier) @name.reference.call)
(object_creation_expression type: (generic_name (identifier) @name.reference.call))
(member_access_expression expression: (identifier) @name.reference.reference
  (#match? @name.reference.reference "^[A-Z]"))
(base_list (identifier) @name.reference.inherit)
(base_list (generic_name (identifier) @name.reference.inherit))
(base_list (qualified_name name: (identifier) @name.reference.inherit))
(variable_declaration type: (identifier) @name.reference.type)
(parameter type: (identifier) @name.reference.type)
(method_declaration returns: (identifier) @name.reference.type)
(property_declaration type: (identifier) @name.reference.type)
(type_argument_list (identifier) @name.reference.type)
(attribute name: (identifier) @name.reference.type)
(nullable_type (identifier) @name.reference.type)
(array_type type: (identifier) @name.reference.type)

(using_directive (qualified_name) @name.reference.import)
(using_directive (identifier) @name.reference.import)
