# The kernels that execute the notebooks for the documentation: figures
# (matplotlib Figure objects shown as a cell's value) render as pictures.
c = get_config()  # noqa: F821
c.InteractiveShellApp.matplotlib = "inline"
