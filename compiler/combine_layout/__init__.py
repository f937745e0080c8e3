"""Pieces of `iree-codegen-combine-layout-transformation` (`passes/combine_layout_transformation.py`)."""
