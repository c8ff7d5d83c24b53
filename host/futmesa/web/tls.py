"""HTTPS with the operator's own certificate (``futmesa serve --tls-cert F --tls-key F``).

Over plain HTTP the referee token travels in clear on the venue network; a venue that wants
it encrypted gives the host a certificate and its key (PEM files). They are checked here,
before anything starts, so a wrong file is one clear line instead of uvicorn's traceback,
and handed to uvicorn as its ``ssl_certfile`` / ``ssl_keyfile`` options.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from futmesa.i18n import N_, _


class TLSSetupError(ValueError):
    """The certificate or key cannot be used; the message says what to do."""


def ssl_options(cert: str | Path | None, key: str | Path | None) -> dict[str, str]:
    """uvicorn's ssl options for ``cert`` + ``key`` (``{}`` for plain HTTP when both are None).

    Raises :class:`TLSSetupError` when only one is given, a file cannot be read, or the two
    do not make a usable pair (not PEM, key of another certificate, key with a passphrase).
    """
    if cert is None and key is None:
        return {}
    if cert is None or key is None:
        raise TLSSetupError(_("HTTPS needs both --tls-cert (the certificate) and --tls-key "
                              "(its private key), as PEM files"))
    for unreadable, path in ((N_("cannot read the TLS certificate {path} ({error}): check the "
                                 "path and that this user may read it"), cert),
                             (N_("cannot read the TLS key {path} ({error}): check the path and "
                                 "that this user may read it"), key)):
        try:
            Path(path).read_bytes()
        except OSError as exc:
            raise TLSSetupError(_(unreadable).format(path=path,
                                                     error=exc.strerror or exc)) from exc
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        # an empty passphrase: a protected key fails here instead of prompting on the terminal
        context.load_cert_chain(str(cert), str(key), password=b"")
    except ssl.SSLError as exc:
        raise TLSSetupError(_(
            "the certificate {cert} and the key {key} cannot be used together ({error}): give "
            "the PEM certificate and its own private key, without a passphrase").format(
                cert=cert, key=key, error=exc.reason or exc)) from exc
    return {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
