"""The solo Automa (``docs/automa.md``): a seat the rules drive. Importing it registers its frames
and hooks; it reaches the shared rules only through their registries, never a role package."""

from meloch.engine.automa import turn  # noqa: F401  (registers the Automa's frames and hooks)
