"""Plain tools with no game knowledge: JSON reading, output files, tokens, sampling sizes, the Dask cluster."""
