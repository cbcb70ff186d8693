"""The one place that touches Debian's python3-pmix 4.2.2 bindings (``import pmix``).

Everything the package asks of the DVM goes through these bindings; this module only shapes the
Python values they take and gives back, and works around the bindings' bugs (README.md, "Bugs
of the 4.2.2 bindings"): each workaround names the binding function it is for.
"""

import os
import sys

try:
    import pmix  # Debian's python3-pmix: /usr/lib/python3/dist-packages/pmix*.so
except ImportError as e:  # pragma: no cover - depends on the machine
    pmix = None
    _IMPORT_ERROR = e
else:
    _IMPORT_ERROR = None


class PmixError(Exception):
    """A PMIx call answered with an error status.

    ``status`` is the PMIx status (an int, e.g. -46), ``name`` its name (``PMIX_ERR_NOT_FOUND``).
    """

    def __init__(self, status, what):
        self.status = status
        self.name = status_name(status)
        super().__init__("%s: %s (%d)" % (what, self.name, status))


def require():
    """The ``pmix`` module, or an ImportError that says which package is missing."""
    if pmix is None:
        raise ImportError(
            "jdvm needs Debian's python3-pmix (import pmix) in %s: %s"
            % (sys.executable, _IMPORT_ERROR))
    return pmix


_NAMES = None


def status_name(status):
    """``PMIX_ERR_NOT_FOUND`` for -46; the bindings only give a prose string (error_string)."""
    global _NAMES
    if _NAMES is None:
        names = {}
        if pmix is not None:
            for attr in dir(pmix):
                if not attr.startswith("PMIX_"):
                    continue
                value = getattr(pmix, attr)
                if type(value) is not int or value > 0:
                    continue
                # prefer the error names over the event codes that share a value
                if value not in names or (attr.startswith("PMIX_ERR_")
                                          and not names[value].startswith("PMIX_ERR_")):
                    names[value] = attr
        names[0] = "PMIX_SUCCESS"
        names.setdefault(-1, "PMIX_ERROR")
        _NAMES = names
    return _NAMES.get(status, "PMIX_STATUS_%d" % status)


# ---- values ------------------------------------------------------------------------------------
# Workaround (pmix_load_info, pmix_copy_key): a key is copied from str(key), so the bindings' own
# bytes constants (pmix.PMIX_WDIR == b'pmix.wdir') only work through a special case for strings
# starting with 'b'; keys are passed as plain str here.
# Workaround (pmix_load_value, PMIX_STRING): a str is encoded as ASCII, and a non-ASCII one raises
# inside a cdef function whose exception is printed and ignored, leaving the value unset; strings
# are passed as UTF-8 bytes, which the bindings copy as they are.

def _key(k):
    return k.decode("ascii") if isinstance(k, bytes) else k


def info(key, value, val_type, required=False):
    d = {"key": _key(key), "value": value, "val_type": val_type}
    if required:
        d["flags"] = pmix.PMIX_INFO_REQD
    return d


def string(key, value, required=False):
    if isinstance(value, str):
        value = value.encode("utf-8")
    return info(key, value, pmix.PMIX_STRING, required)


def boolean(key, value):
    return info(key, bool(value), pmix.PMIX_BOOL)


def strings(key, values):
    """A PMIX_DATA_ARRAY of strings (e.g. PMIX_SPAWN_TARGET with several allocations)."""
    return info(key, {"type": pmix.PMIX_STRING,
                      "array": [v.encode("utf-8") if isinstance(v, str) else v for v in values]},
                pmix.PMIX_DATA_ARRAY)


def envar(key, name, value, separator=":"):
    return info(key, {"envar": name.encode("utf-8"), "value": value.encode("utf-8"),
                      "separator": separator}, pmix.PMIX_ENVAR)


def ascii_path(what, value):
    # Workaround (pmix_load_apps): cmd and cwd are copied from str(x).encode('ascii'): bytes
    # become "b'...'" and a non-ASCII path raises inside the binding. Refused here, clearly.
    value = os.fspath(value)
    if isinstance(value, bytes):
        value = value.decode("utf-8")
    try:
        value.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("%s must be ASCII for the 4.2.2 bindings: %r" % (what, value)) from None
    return value


def app(argv, procs, cwd, app_infos):
    """A pmix_app_t as the bindings take it.

    Workaround (pmix_load_apps): the 'env' list is converted and then dropped (never stored in
    the app), so the environment goes as PMIX_SET_ENVAR infos instead; an empty 'info' list
    makes an app of zero infos with a non-NULL array, which PMIx_Spawn rejects (PMIX_ERROR, "ERROR
    in file pmix_client_spawn.c at line 351"), and the key is left out then.
    """
    a = {"cmd": ascii_path("the command", argv[0]),
         "argv": [x.encode("utf-8") if isinstance(x, str) else x for x in argv],
         "cwd": ascii_path("the working directory", cwd),
         "maxprocs": int(procs)}
    if app_infos:
        a["info"] = list(app_infos)
    return a


def values(results):
    """{key: value} of the info list a call gave back (the bindings return a list of dicts)."""
    out = {}
    for d in results or []:
        v = d.get("value")
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        out[d.get("key")] = v
    return out


# ---- the bindings' own threads -----------------------------------------------------------------

def stop_ack_thread():
    """Stops the bindings' event thread: the package registers no event handler.

    Workaround (PMIxTool.init, pyevhdlr): init starts a thread that wakes every millisecond, for
    ever, to acknowledge events; in a process with no handler it only takes the GIL 1,000 times a
    second. Setting the module's stop_progress ends it (PMIxTool.finalize does the same).
    """
    pmix.stop_progress = True
