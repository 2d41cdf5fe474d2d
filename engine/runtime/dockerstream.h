// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <functional>

namespace sandbox {

/// Splits Docker's multiplexed exec/attach stream (no TTY) into stdout and stderr.
/// Docker Engine API, "Attach to a container: Stream format": an 8-byte header
/// [type, 0, 0, 0, size as big-endian uint32] then size bytes; type 0 (stdin, treated as
/// stdout), 1 stdout, 2 stderr, 3 daemon error (systemerr). Input may arrive in any
/// pieces; frames are delivered whole or in parts as they complete.
class FrameDemuxer
{
public:
    enum class Stream
    {
        Stdout = 1,
        Stderr = 2,
        SystemError = 3
    };
    using Sink = std::function<bool(Stream, QByteArrayView)>;

    explicit FrameDemuxer(Sink sink)
        : m_sink(std::move(sink))
    {}

    /// Feeds bytes. Returns false once the sink returned false (stop reading) or the
    /// stream is malformed (see malformed()).
    bool feed(QByteArrayView data);
    /// True when a header had a type outside 0-3 (the stream is not multiplexed).
    bool malformed() const { return m_malformed; }
    /// True at end of stream when the last frame was cut short.
    bool truncated() const { return m_headerFill > 0 || m_remaining > 0; }

private:
    Sink m_sink;
    unsigned char m_header[8] = {};
    int m_headerFill = 0;
    quint32 m_remaining = 0;
    Stream m_current = Stream::Stdout;
    bool m_malformed = false;
};

} // namespace sandbox
