; Tag query for Ruby, written for ctxopt (see README.md for the capture contract).
; Every `def` is a method; `def self.x` is a method of the enclosing class or module.

(module name: [(constant) (scope_resolution)] @name.definition.module) @definition.module
(class name: [(constant) (scope_resolution)] @name.definition.class) @definition.class
(method name: (_) @name.definition.method) @definition.method
(singleton_method name: (_) @name.definition.method) @definition.method
(assignment left: (constant) @name.definition.constant) @definition.constant
(call method: (identifier) @_attr
  arguments: (argument_list (simple_symbol) @name.definition.field)
  (#match? @_attr "^attr_(reader|writer|accessor)$")) @definition.field

(call method: (identifier) @name.reference.call
  (#not-match? @name.reference.call "^(require|require_relative|include|extend|prepend|attr_reader|attr_writer|attr_accessor|private|public|protected)$"))
(call receiver: (constant) @name.reference.reference)
(call receiver: (scope_resolution name: (constant) @name.reference.reference))
(superclass (constant) @name.reference.inherit)
(superclass (scope_resolution name: (constant) @name.reference.inherit))
(call method: (identifier) @_mixin
  arguments: (argument_list [(constant) (scope_resolution name: (constant))] @name.reference.inherit)
  (#match? @_mixin "^(include|extend|prepend)$"))
(scope_resolution name: (constant) @name.reference.type)

(call method: (identifier) @_require
  arguments: (argument_list (string (string_content) @name.reference.import))
  (#eq? @_require "require"))
(call method: (identifier) @_require
  arguments: (argument_list (string (string_content) @name.reference.import))
  (#eq? @_require "require_relative"))
