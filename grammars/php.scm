; Tag query for PHP, written for ctxopt (see README.md for the capture contract).
; `namespace App\Storage;` holds the rest of the file (or up to the next namespace), so
; `App\Storage\Storage::get` has the qualified name `App.Storage.Storage.get`.

(namespace_definition name: (namespace_name) @name.definition.namespace) @definition.namespace
(class_declaration name: (name) @name.definition.class) @definition.class
(interface_declaration name: (name) @name.definition.interface) @definition.interface
(trait_declaration name: (name) @name.definition.trait) @definition.trait
(enum_declaration name: (name) @name.definition.enum) @definition.enum
(function_definition name: (name) @name.definition.function) @definition.function
(method_declaration name: (name) @name.definition.method) @definition.method
(property_declaration (property_element name: (variable_name (name) @name.definition.field))) @definition.field
(const_declaration (const_element (name) @name.definition.constant)) @definition.constant
(enum_case name: (name) @name.definition.constant) @definition.constant

(function_call_expression function: (name) @name.reference.call)
(function_call_expression function: (qualified_name (name) @name.reference.call .))
(member_call_expression name: (name) @name.reference.call)
(nullsafe_member_call_expression name: (name) @name.reference.call)
(scoped_call_expression name: (name) @name.reference.call)
(scoped_call_expression scope: (name) @name.reference.reference)
(scoped_call_expression scope: (qualified_name (name) @name.reference.reference .))
(attribute (name) @name.reference.type)
(attribute (qualified_name (name) @name.reference.type .))
(class_constant_access_expression . (name) @name.reference.reference)
(object_creation_expression (name) @name.reference.call)
(object_creation_expression (qualified_name (name) @name.reference.call .))
(base_clause (name) @name.reference.inherit)
(base_clause (qualified_name (name) @name.reference.inherit .))
(class_interface_clause (name) @name.reference.inherit)
(class_interface_clause (qualified_name (name) @name.reference.inherit .))
(use_declaration (name) @name.reference.inherit)
(named_type (name) @name.reference.type (#not-match? @name.reference.type "^(self|static|parent)$"))
(named_type (qualified_name (name) @name.reference.type .))

(namespace_use_clause (qualified_name) @name.reference.import)
(namespace_use_clause (name) @name.reference.import)
(require_expression (string (string_content) @name.reference.import))
(require_once_expression (string (string_content) @name.reference.import))
(include_expression (string (string_content) @name.reference.import))
(include_once_expression (string (string_content) @name.reference.import))
