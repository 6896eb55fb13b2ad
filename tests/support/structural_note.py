"""A short note with frontmatter, emphasis, headings and lists: the structural extractor's
fixture, shared by its unit and scale tests."""

NOTE = """---
aliases: [Mito]
---
Mitochondria are the **powerhouse** of the cell. They have their own DNA.

# Mitochondria

Mitochondria produce ATP via [[Krebs cycle|the Krebs cycle]] and oxidative
  phosphorylation. Short one.

1. Glycolysis happens in the cytoplasm.
   - It yields two pyruvate molecules.
2. The Krebs cycle runs in the matrix.
3. The electron transport chain pumps protons.

> A quoted statement is long enough.
> Its second line stands alone.

## Structure
- The inner membrane folds into cristae. ^cristae
- [[Just a link]]

```
Code lines are never statements here.
```
"""
