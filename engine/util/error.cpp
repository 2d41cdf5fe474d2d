// SPDX-License-Identifier: GPL-3.0-or-later
#include "error.h"

namespace sandbox {

QString errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Internal:
        return QStringLiteral("internal");
    case ErrorCode::InvalidArgument:
        return QStringLiteral("invalid_argument");
    case ErrorCode::UnknownLanguage:
        return QStringLiteral("unknown_language");
    case ErrorCode::EngineUnreachable:
        return QStringLiteral("engine_unreachable");
    case ErrorCode::EngineError:
        return QStringLiteral("engine_error");
    case ErrorCode::TlsError:
        return QStringLiteral("tls_error");
    case ErrorCode::ImageMissing:
        return QStringLiteral("image_missing");
    case ErrorCode::NotFound:
        return QStringLiteral("not_found");
    case ErrorCode::Cancelled:
        return QStringLiteral("cancelled");
    case ErrorCode::Timeout:
        return QStringLiteral("timeout");
    case ErrorCode::ProtocolError:
        return QStringLiteral("protocol_error");
    case ErrorCode::PathRefused:
        return QStringLiteral("path_refused");
    case ErrorCode::IoError:
        return QStringLiteral("io_error");
    case ErrorCode::DependencyFailed:
        return QStringLiteral("dependency_failed");
    case ErrorCode::NotSupported:
        return QStringLiteral("not_supported");
    }
    return QStringLiteral("internal");
}

} // namespace sandbox
