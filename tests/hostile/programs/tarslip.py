# A tar-slip archive: members named ../../escape and /etc/cron.d/evil. It must come back as
# an opaque file, never unpacked.
import io, os, tarfile
os.makedirs("output", exist_ok=True)
with tarfile.open("output/slip.tar", "w") as t:
    for name in ["../../escape", "/etc/cron.d/evil", "ok/../../../escape2"]:
        data = b"pwned\n"
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
print("archive", os.path.getsize("output/slip.tar"))
