; Tag query for Java, written for ctxopt (see README.md for the capture contract).
; Annotations sit in a declaration's modifiers, so they fall inside its span.

(class_declaration name: (identifier) @name.definition.class) @definition.class
(record_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(annotation_type_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(method_declaration name: (identifier) @name.definition.method) @definition.method
(constructor_declaration name: (identifier) @name.definition.method) @definition.method
(compact_constructor_declaration name: (identifier) @name.definition.method) @definition.method
(annotation_type_element_declaration name: (identifier) @name.definition.method) @definition.method
(class_body (field_declaration declarator: (variable_declarator name: (identifier) @name.definition.field)) @definition.field)
(interface_body (constant_declaration declarator: (variable_declarator name: (identifier) @name.definition.constant)) @definition.constant)
(enum_constant name: (identifier) @name.definition.constant) @definition.constant

(method_invocation name: (identifier) @name.reference.call)
(object_creation_expression type: (type_identifier) @name.reference.call)
(object_creation_expression type: (generic_type (type_identifier) @name.reference.call))
(method_reference (identifier) @name.reference.reference)
(superclass (type_identifier) @name.reference.inherit)
(superclass (generic_type (type_identifier) @name.reference.inherit))
(super_interfaces (type_list (type_identifier) @name.reference.inherit))
(super_interfaces (type_list (generic_type (type_identifier) @name.reference.inherit)))
(extends_interfaces (type_list (type_identifier) @name.reference.inherit))
(extends_interfaces (type_list (generic_type (type_identifier) @name.reference.inherit)))
(type_identifier) @name.reference.type
(marker_annotation name: (identifier) @name.reference.type)
(annotation name: (identifier) @name.reference.type)

; Imports: the name as written (`com.example.Storage`, `com.example.*` is kept as `com.example.*`).
(import_declaration (scoped_identifier) @name.reference.import)
(import_declaration (scoped_identifier) (asterisk)) @name.reference.import

; A class used as a receiver: `Decoder.decode(x)`, `Mode.READ`.
(method_invocation object: (identifier) @name.reference.reference
  (#match? @name.reference.reference "^[A-Z]"))
(field_access object: (identifier) @name.reference.reference
  (#match? @name.reference.reference "^[A-Z]"))
