; Tag query patterns shared by JavaScript and TypeScript (and TSX through TypeScript),
; written for ctxopt: not a language of its own, it is read through the first-line
; `; inherits: ecma` of javascript.scm and typescript.scm (see README.md).

; `Hash.prototype.get = function () {...}` and `Hash.prototype.get = hashGet` define
; methods of Hash (@scope); written before the generic assignment so that they win
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @scope property: (property_identifier) @_prototype)
    property: (property_identifier) @name.definition.method)
  right: [(arrow_function) (function_expression) (identifier)]
  (#eq? @_prototype "prototype")) @definition.method

; object literal members holding functions are methods, however written: `get() {}`
; (method_definition, above), `post: () => 1`, `put: function () {}` (a string key is named
; by its text, without quotes); an accessor in a property descriptor
; (`Object.defineProperty(o, 'x', { get: function getx() {...} })`) is known by the function's
; own name when it has one, as every descriptor's accessor is `get` or `set`
(pair key: [(property_identifier) @name.definition.method (string (string_fragment) @name.definition.method)]
  value: [(arrow_function) (function_expression) (generator_function)]
  (#not-match? @name.definition.method "^[gs]et$")) @definition.method
(pair key: (property_identifier) @name.definition.method
  value: [(arrow_function) (function_expression !name) (generator_function)]
  (#match? @name.definition.method "^[gs]et$")) @definition.method
(pair key: (property_identifier) @_accessor
  value: (function_expression name: (identifier) @name.definition.method)
  (#match? @_accessor "^[gs]et$")) @definition.method

; an anonymous default export (`export default () => 0`, `export default function () {}`,
; `export default class {}`, `export default {...}`) is named after its module: the
; `default` keyword stands for the name (see README.md)
(export_statement "default" @name.definition.function
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(export_statement "default" @name.definition.class value: (class)) @definition.class
(export_statement "default" @name.definition.constant value: (object)) @definition.constant

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
; a private method's call names it as it is defined, with its `#` (`this.#retry()`)
(call_expression function: (member_expression property: (private_property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.call)

(import_statement source: (string (string_fragment) @name.reference.import))
(export_statement source: (string (string_fragment) @name.reference.import))
(call_expression function: (identifier) @_require
  arguments: (arguments (string (string_fragment) @name.reference.import))
  (#eq? @_require "require"))
(call_expression function: (import)
  arguments: (arguments (string (string_fragment) @name.reference.import)))
