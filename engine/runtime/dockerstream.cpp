// SPDX-License-Identifier: GPL-3.0-or-later
#include "dockerstream.h"

namespace sandbox {

bool FrameDemuxer::feed(QByteArrayView data)
{
    while (!data.isEmpty()) {
        if (m_remaining == 0) {
            const int need = 8 - m_headerFill;
            const int take = int(qMin<qsizetype>(need, data.size()));
            memcpy(m_header + m_headerFill, data.data(), size_t(take));
            m_headerFill += take;
            data = data.sliced(take);
            if (m_headerFill < 8)
                return true;
            m_headerFill = 0;
            const unsigned type = m_header[0];
            if (type > 3) {
                m_malformed = true;
                return false;
            }
            m_current = type == 0 ? Stream::Stdout : Stream(type);
            m_remaining = (quint32(m_header[4]) << 24) | (quint32(m_header[5]) << 16) |
                          (quint32(m_header[6]) << 8) | quint32(m_header[7]);
            continue;
        }
        const qsizetype take = qMin<qsizetype>(m_remaining, data.size());
        m_remaining -= quint32(take);
        if (!m_sink(m_current, data.first(take)))
            return false;
        data = data.sliced(take);
    }
    return true;
}

} // namespace sandbox
