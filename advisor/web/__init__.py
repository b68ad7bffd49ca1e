"""``camelup serve``: a local web page for the table, and the JSON API
behind it.

:func:`create_app` builds the ASGI application (Starlette); :func:`serve`
loads the kernels, starts the worker processes and serves it with uvicorn.
The page's scripts, styles and pictures ship in ``advisor/web/static``:
nothing is fetched from the network.
"""

from __future__ import annotations

__all__ = ["create_app", "serve"]

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = ("importing a module of advisor.web (a worker imports advisor.web.work) loads neither the server "
                "nor Starlette: create_app and serve load when they are asked for")


def __getattr__(name: str):
    if name == "create_app":
        from advisor.web.app import create_app

        return create_app
    if name == "serve":
        from advisor.web.server import serve

        return serve
    raise AttributeError(f"module 'advisor.web' has no attribute {name!r}")
