"""Finding the DVM: its contact file (``~/.jdvm/dvm.json``), a URI, or libpmix's own rendezvous.

A contact file is read only when it is this user's own: opened without following a link
(``O_NOFOLLOW``), a regular file, owned by this uid. Another user could otherwise point this
process at a server of theirs, which would then receive everything it spawns.
"""

import errno
import json
import os
import stat

CONTACT_FILE = "dvm.json"


class ContactError(Exception):
    """No usable contact: missing, not this user's own, or not a jdvm contact file."""


class Contact:
    """Where a DVM is: ``uri`` (None for libpmix's rendezvous search) and ``dir`` (its directory;
    None for a bare URI)."""

    def __init__(self, uri=None, dir=None, pid=None, name=None, tools=None):
        self.uri = uri
        self.dir = dir
        self.pid = pid
        self.name = name
        self.tools = tools

    def __repr__(self):
        return "Contact(uri=%r, dir=%r)" % (self.uri, self.dir)


def default_dir():
    return os.path.join(os.path.expanduser("~"), ".jdvm")


def read_own_file(path):
    """The text of ``path`` if it is a regular file of this user's, never through a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise ContactError("%s is a symbolic link: not read" % path) from None
        raise ContactError("cannot read %s: %s" % (path, e.strerror)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ContactError("%s is not a regular file: not read" % path)
        if st.st_uid != os.getuid():
            raise ContactError("%s belongs to uid %d, not to this user (uid %d): not read"
                               % (path, st.st_uid, os.getuid()))
        with os.fdopen(fd, "r", encoding="utf-8", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


def from_file(path):
    text = read_own_file(path)
    try:
        tree = json.loads(text)
    except ValueError:
        tree = None
    if not isinstance(tree, dict) or not isinstance(tree.get("uri"), str):
        raise ContactError("%s is not a jdvm contact file" % path)
    return Contact(uri=tree["uri"], dir=os.path.dirname(os.path.abspath(path)),
                   pid=tree.get("pid"), name=tree.get("name"), tools=tree.get("tools"))


def discover(uri=None, dir=None, contact=None, rendezvous=False):
    """The DVM to connect to.

    In order: ``uri`` (a PMIx URI), ``contact`` (a contact file), ``dir`` (``DIR/dvm.json``);
    then ``$JDVM_URI`` (a URI or a contact file); then ``~/.jdvm/dvm.json`` if it exists; then
    libpmix's own rendezvous (``rendezvous=True`` goes there directly).
    """
    if rendezvous:
        return Contact()
    if uri:
        return Contact(uri=uri)
    if contact:
        return from_file(contact)
    if dir:
        return from_file(os.path.join(dir, CONTACT_FILE))
    env = os.environ.get("JDVM_URI")
    if env:
        return Contact(uri=env) if "://" in env else from_file(env)
    path = os.path.join(default_dir(), CONTACT_FILE)
    if os.path.lexists(path):
        return from_file(path)
    return Contact()
