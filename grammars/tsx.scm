; inherits: typescript
; Tag query for TSX: the TypeScript query plus JSX component references.

(jsx_opening_element name: (identifier) @name.reference.call (#match? @name.reference.call "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @name.reference.call (#match? @name.reference.call "^[A-Z]"))
