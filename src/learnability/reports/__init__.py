"""The reports: tables for people in Markdown, CSV and LaTeX (:mod:`.tables`),
figures as PNG, SVG and PDF (:mod:`.plots`), and the generated reference pages
(:mod:`.config_docs`). They reshape the tidy outputs and compute nothing new."""
