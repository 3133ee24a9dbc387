; inherits: ecma
; Tag query for JavaScript (and JSX), written for ctxopt (see README.md for the contract).

(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
(class_declaration name: (identifier) @name.definition.class) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier)] @name.definition.method) @definition.method
(field_definition property: (property_identifier) @name.definition.method
  value: [(arrow_function) (function_expression)]) @definition.method
(field_definition property: (property_identifier) @name.definition.field) @definition.field

; const f = () => ..., const g = function () {...}, const C = class {...}
(lexical_declaration (variable_declarator name: (identifier) @name.definition.function
  value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration (variable_declarator name: (identifier) @name.definition.function
  value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
; `var f = (function f() {...})`, and the module pattern `var f = (function () { ...;
; return function () {...}; }())`: an IIFE whose body returns a function (not one returning a value)
(lexical_declaration (variable_declarator name: (identifier) @name.definition.function
  value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)]))) @definition.function
(lexical_declaration (variable_declarator name: (identifier) @name.definition.function
  value: [(parenthesized_expression (call_expression function: (function_expression
            body: (statement_block (return_statement [(function_expression) (arrow_function)])))))
          (call_expression function: (parenthesized_expression (function_expression
            body: (statement_block (return_statement [(function_expression) (arrow_function)])))))])) @definition.function
(variable_declaration (variable_declarator name: (identifier) @name.definition.function
  value: (parenthesized_expression [(arrow_function) (function_expression) (generator_function)]))) @definition.function
(variable_declaration (variable_declarator name: (identifier) @name.definition.function
  value: [(parenthesized_expression (call_expression function: (function_expression
            body: (statement_block (return_statement [(function_expression) (arrow_function)])))))
          (call_expression function: (parenthesized_expression (function_expression
            body: (statement_block (return_statement [(function_expression) (arrow_function)])))))])) @definition.function
(lexical_declaration (variable_declarator name: (identifier) @name.definition.class
  value: (class))) @definition.class
(program (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: [(object) (array) (string) (number) (template_string) (regex) (true) (false) (new_expression) (member_expression) (identifier) (binary_expression)])) @definition.constant)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: [(object) (array) (string) (number) (template_string) (regex) (true) (false) (new_expression) (member_expression) (identifier) (binary_expression)]))) @definition.constant)
; `Cache.prototype.add = Cache.prototype.push = cacheAdd`: the outer alias spans its own
; left side, so that the inner one is not nested in it
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @scope property: (property_identifier) @_prototype)
    property: (property_identifier) @name.definition.method) @definition.method
  right: (assignment_expression left: (member_expression))
  (#eq? @_prototype "prototype"))
(assignment_expression
  left: [(member_expression property: (property_identifier) @name.definition.function)
         (identifier) @name.definition.function]
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; a named function expression passed as an argument or returned is known by its own name
; (`defineGetter(req, 'host', function host() {...})`, `return function generateETag() {...}`)
(arguments (function_expression name: (identifier) @name.definition.function) @definition.function)
(return_statement (function_expression name: (identifier) @name.definition.function) @definition.function)

; a module-level constant holding a call's result, but not `const x = require("x")`
(program (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: (call_expression function: (_) @_callee))) @definition.constant
  (#not-eq? @_callee "require"))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant
  value: (call_expression function: (_) @_callee)))) @definition.constant
  (#not-eq? @_callee "require"))

(class_heritage (identifier) @name.reference.inherit)
(class_heritage (member_expression property: (property_identifier) @name.reference.inherit))
(jsx_opening_element name: (identifier) @name.reference.call (#match? @name.reference.call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @name.reference.call (#match? @name.reference.call "^[A-Z]"))
