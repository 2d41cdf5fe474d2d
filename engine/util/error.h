// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <expected>

namespace sandbox {

/// Machine-readable class of an engine failure. Front ends branch on it (e.g. the GUI
/// shows "start Docker" for EngineUnreachable); people read Error::message.
enum class ErrorCode
{
    Internal,          ///< a bug or an impossible state
    InvalidArgument,   ///< bad input from the caller (unknown language, bad limit, ...)
    UnknownLanguage,   ///< RunRequest::language names no descriptor
    EngineUnreachable, ///< the container engine's socket or port does not answer
    EngineError,       ///< the engine answered with an error status
    TlsError,          ///< certificate or handshake failure
    ImageMissing,      ///< the image is not present locally and cannot be pulled
    NotFound,          ///< a container, exec or file does not exist
    Cancelled,         ///< the caller cancelled the operation
    Timeout,           ///< an engine call (not the user's program) took too long
    ProtocolError,     ///< malformed data from the engine (truncated frame, bad JSON)
    PathRefused,       ///< a file path would escape the sandbox or the destination
    IoError,           ///< local file or process failure
    DependencyFailed,  ///< a package manager could not install the run's dependencies
    NotSupported,      ///< the backend cannot do this at all (Kubernetes commit, ...)
};

/// An error that crosses a module boundary as a value.
struct Error
{
    ErrorCode code = ErrorCode::Internal;
    QString message; ///< one sentence for people, says what to do where possible
    QString detail;  ///< the failing call: "POST /v1.41/containers/create -> 404: ..."

    QString toString() const
    {
        return detail.isEmpty() ? message : message + QStringLiteral(" (") + detail + u')';
    }
};

/// Result of a fallible call: the value or an Error.
template <typename T> using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(ErrorCode code, QString message, QString detail = {})
{
    return std::unexpected<Error>(Error{code, std::move(message), std::move(detail)});
}

/// Stable lowercase name of a code, used in JSON output ("engine_unreachable").
QString errorCodeName(ErrorCode code);

} // namespace sandbox
