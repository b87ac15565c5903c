"""The browser client: static pages and scripts in ``static/``, their texts in ``strings``."""
