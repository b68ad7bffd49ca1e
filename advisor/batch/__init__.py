"""Many positions at once: the analysis, its input and output files, and the Dask form."""
