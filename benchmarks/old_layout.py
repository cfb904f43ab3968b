"""Lets a benchmark's child process run a tree from before the per-game layout.

The benchmarks compare this tree with another (``--reference DIR``), often an older
commit whose modules still have flat names (``solvers/twist_of_fate_numba.py``).
:data:`SHIM`, pasted into a child's code after the tree is put on ``sys.path``, maps
each new module name to the old module where the new one does not exist.
"""

SHIM = r"""
import importlib as _importlib, sys as _sys
try:
    _importlib.import_module("ruleslawyer.solvers.twist_of_fate.memory")
except ModuleNotFoundError:  # a tree from before the per-game layout
    for _new, _old in {
        "ruleslawyer.models.twist_of_fate.play": "ruleslawyer.models.twist_of_fate",
        "ruleslawyer.models.twist_of_fate.files": "ruleslawyer.models.twist_of_fate_files",
        "ruleslawyer.solvers.twist_of_fate.memory": "ruleslawyer.solvers.twist_of_fate_numba",
        "ruleslawyer.solvers.twist_of_fate.maxn": "ruleslawyer.solvers.twist_of_fate_maxn",
        "ruleslawyer.solvers.twist_of_fate.reference.solve": (
            "ruleslawyer.solvers.twist_of_fate_reference"
        ),
    }.items():
        _sys.modules[_new] = _importlib.import_module(_old)
"""
