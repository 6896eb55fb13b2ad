"""Export writers: the Anki deck (``genanki``) and the Markdown folder, each file written whole
through a hidden partial beside it (a killed export's partials are swept by the next run)."""
