"""The dataset's own files, `3DSceneGraph_NAME.npz`, read without running code from them.

The official release stores one pickled dict (`output`: `building`, `room`,
`object`, ... records by id) in the `.npz`. `numpy.load(allow_pickle=True)`
would unpickle it with Python's `pickle`, which can call any function a file
names. Here the `.npy` member is read with a `pickle.Unpickler` whose
`find_class` admits only numpy's array and scalar reconstruction: the plain
containers (dict, list, tuple, str, numbers) need no class at all. A file
naming anything else (`os.system`, a class of some package) is refused before
that name is even imported.
"""

from __future__ import annotations

import pickle
import zipfile
from pathlib import Path
from typing import Any

from sceneplan.errors import BackendUnavailableError, BadInputError

__all__ = ["ADMITTED", "read_npz"]

# (module, name) pairs a 3D Scene Graph pickle may name: how numpy pickles arrays, dtypes
# and scalars (numpy 1 wrote `numpy.core`, numpy 2 writes `numpy._core`).
ADMITTED = frozenset(
    {
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "scalar"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "scalar"),
        ("builtins", "set"),
        ("builtins", "frozenset"),
        ("collections", "OrderedDict"),
        ("_codecs", "encode"),  # bytes in protocol 2 pickles (Python 2's numpy)
    }
)


class _DataOnly(pickle.Unpickler):
    """An unpickler that builds data and refuses every other callable."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in ADMITTED or (module == "numpy.dtypes" and name.endswith("DType")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name}")


def read_npz(path: Path) -> dict[str, Any]:
    """The building's rooms and objects as the JSON conversion has them (lists, numbers)."""
    try:
        import numpy as np
    except ImportError:
        raise BackendUnavailableError(
            "reading a 3D Scene Graph .npz needs numpy: pip install 'sceneplan[stanford3dsg]'"
        ) from None

    try:
        with zipfile.ZipFile(path) as archive, archive.open("output.npy") as member:
            version = np.lib.format.read_magic(member)
            if version == (1, 0):
                _, _, dtype = np.lib.format.read_array_header_1_0(member)
            else:
                _, _, dtype = np.lib.format.read_array_header_2_0(member)
            if not dtype.hasobject:
                raise BadInputError(
                    f"{path}: its 'output' is a plain array, not the 3D Scene Graph dict of "
                    "building, room and object records"
                )
            output = _DataOnly(member, encoding="latin1").load()  # Python 2 text, as numpy
    except KeyError:
        raise BadInputError(
            f"{path}: no 'output' in the .npz; a 3D Scene Graph file (3DSceneGraph_NAME.npz) "
            "holds its building, rooms and objects there"
        ) from None
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise BadInputError(f"{path}: not a readable .npz file ({exc})") from None
    except pickle.UnpicklingError as exc:
        raise BadInputError(
            f"{path}: refused: its pickle names {exc}, which is code, not scene data (a 3D "
            "Scene Graph .npz holds only containers, numbers, text and arrays); nothing from "
            "it was run"
        ) from None
    except OSError as exc:
        raise BadInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    data = _plain(
        output.item() if isinstance(output, np.ndarray) and output.shape == () else output
    )
    if not isinstance(data, dict) or not isinstance(data.get("room"), dict):
        raise BadInputError(
            f"{path}: its 'output' has no 'room' records; not a 3D Scene Graph file"
        )
    objects = data.get("object") or {}
    return {
        "building": data.get("building") or {},
        "rooms": list(data["room"].values()),
        "objects": list(objects.values()) if isinstance(objects, dict) else [],
    }


def _plain(value: Any) -> Any:
    """Numpy arrays and scalars as lists and Python numbers, containers walked."""
    import numpy as np

    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
