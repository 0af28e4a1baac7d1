"""The Python AutoGraph does not convert: a function holding one runs as it is, after TF's
"could not transform" warning naming it.

Glossary:
  mangled name  -- ``self.__x`` (Python mangles it inside its class only; the converted
                   copy is compiled outside it): 'mangled names are not yet supported'.
  loop else     -- ``for ... else`` / ``while ... else``: 'for/else statement not yet
                   supported', 'while/else statement not yet supported'.
  generator     -- ``yield`` / ``yield from``: 'generators are not supported'.

Mirrors tensorflow/python/autograph/core/unsupported_features_checker.py.
"""

from __future__ import annotations

import ast


class UnsupportedLanguageElementError(NotImplementedError):
    """A construct AutoGraph does not convert (TF's pyct errors)."""


def verify(node) -> None:
    """Raise UnsupportedLanguageElementError at the first construct AutoGraph refuses."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr.startswith("__") and \
                not sub.attr.endswith("__"):
            raise UnsupportedLanguageElementError("mangled names are not yet supported")
        if isinstance(sub, (ast.For, ast.While)) and sub.orelse:
            kind = "for" if isinstance(sub, ast.For) else "while"
            raise UnsupportedLanguageElementError(f"{kind}/else statement not yet supported")
        if isinstance(sub, (ast.Yield, ast.YieldFrom)):
            raise UnsupportedLanguageElementError("generators are not supported")
