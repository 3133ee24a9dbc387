; Tag query for C, written for ctxopt (see README.md for the capture contract).
; A function declared in a header (a prototype) and one defined in a source file are both
; definitions of kind function. Declarators nest (`char **f(void)`), so each pattern lists
; up to two pointer levels.

(function_definition declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function
; Prototypes at file level (also inside #if blocks), not local declarations.
(translation_unit (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function)
(preproc_ifdef (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function)
(preproc_if (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function)
(preproc_else (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function)
(preproc_elif (declaration declarator: [
  (function_declarator declarator: (identifier) @name.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))
  (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))
  ]) @definition.function)

; A macro before the name (`static int EXPORT f(void) {...}`) leaves the real name in an
; ERROR node and the macro where the name belongs: the macro is @not_a_name.
(function_definition declarator: [
  (function_declarator declarator: (identifier) @not_a_name (ERROR (identifier) @name.definition.function .))
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @not_a_name (ERROR (identifier) @name.definition.function .)))
  ]) @definition.function

; A struct, union or enum declared by a typedef is the whole typedef, as written
; (`typedef struct s { ... } s_t;`); the typedef's name is a second definition only when
; it differs from the tag (`typedef struct s {...} s;` is one declaration).
(type_definition type: (struct_specifier name: (type_identifier) @name.definition.struct body: (_))) @definition.struct
(type_definition type: (union_specifier name: (type_identifier) @name.definition.struct body: (_))) @definition.struct
(type_definition type: (enum_specifier name: (type_identifier) @name.definition.enum body: (_))) @definition.enum
(type_definition type: [(struct_specifier name: (type_identifier) @_tag body: (_))
                        (union_specifier name: (type_identifier) @_tag body: (_))
                        (enum_specifier name: (type_identifier) @_tag body: (_))]
  declarator: (type_identifier) @not_a_name (#eq? @_tag @not_a_name))
(struct_specifier name: (type_identifier) @name.definition.struct body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name.definition.struct body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name.definition.enum body: (_)) @definition.enum
(type_definition type: (struct_specifier !name body: (_))
  declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition type: (union_specifier !name body: (_))
  declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name.definition.enum) @definition.enum
(type_definition declarator: [
  (type_identifier) @name.definition.type
  (pointer_declarator declarator: (type_identifier) @name.definition.type)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name.definition.type)))
  ]) @definition.type
(enumerator name: (identifier) @name.definition.constant) @definition.constant
(preproc_def name: (identifier) @name.definition.constant) @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro

; struct and union fields (also those inside `#if` blocks of the body)
(field_declaration declarator: [
  (field_identifier) @name.definition.field
  (pointer_declarator declarator: (field_identifier) @name.definition.field)
  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name.definition.field))
  (array_declarator declarator: (field_identifier) @name.definition.field)
  (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name.definition.field))
  ; function pointers: `void (*cb)(int)`, `int (*table[4])(void)`, `char *(*name)(void)`
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: [
    (field_identifier) @name.definition.field
    (array_declarator declarator: (field_identifier) @name.definition.field)])))
  (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (field_identifier) @name.definition.field))))
  ]) @definition.field

; File-level variables (not locals).
(translation_unit (declaration declarator: [
  (identifier) @name.definition.variable
  (init_declarator declarator: (identifier) @name.definition.variable)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.variable))
  (init_declarator declarator: (array_declarator declarator: (identifier) @name.definition.variable))
  (pointer_declarator declarator: (identifier) @name.definition.variable)
  (array_declarator declarator: (identifier) @name.definition.variable)
  ]) @definition.variable)

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(type_identifier) @name.reference.type

(preproc_include path: (string_literal (string_content) @name.reference.import))
(preproc_include path: (system_lib_string) @name.reference.import)
