"""Selectors, section resolution, exclusions and normalisation of bound files."""
