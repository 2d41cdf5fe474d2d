<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Sandbox Studio</source>
        <translation>Über Sandbox Studio</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Hilfe</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Sandbox Studio %1&lt;/h2&gt;&lt;p&gt;Runs code written by language models inside hardened, isolated containers.&lt;/p&gt;&lt;p&gt;Container engine: %2&lt;br&gt;Qt %3&lt;/p&gt;&lt;p&gt;License: GNU GPL version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Sandbox Studio %1&lt;/h2&gt;&lt;p&gt;Führt von Sprachmodellen geschriebenen Code in gehärteten, isolierten Containern aus.&lt;/p&gt;&lt;p&gt;Container-Engine: %2&lt;br&gt;Qt %3&lt;/p&gt;&lt;p&gt;Lizenz: GNU GPL Version 3 oder neuer.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>Ü&amp;ber</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>Kommandozeile</translation>
    </message>
    <message>
        <source>The same program runs without a window when given a command:</source>
        <translation>Mit einem Befehl aufgerufen, läuft dasselbe Programm ohne Fenster:</translation>
    </message>
    <message>
        <source>run exits with the program&apos;s own status; bad input exits 2, engine failures 125.</source>
        <translation>run endet mit dem Status des Programms; fehlerhafte Eingaben enden mit 2, Fehler der Engine mit 125.</translation>
    </message>
    <message>
        <source>MCP</source>
        <translation>MCP</translation>
    </message>
    <message>
        <source>Language-model clients reach Sandbox Studio through the Model Context Protocol. Enable the endpoint and choose its port in Preferences ▸ MCP; it listens on 127.0.0.1 only, and every run it asks for uses the same sandboxes, limits and policy as runs started here.</source>
        <translation>Sprachmodell-Clients erreichen Sandbox Studio über das Model Context Protocol. Aktivieren Sie den Endpunkt und wählen Sie seinen Port unter Einstellungen ▸ MCP; er lauscht nur auf 127.0.0.1, und jede angeforderte Ausführung nutzt dieselben Sandboxen, Grenzen und Richtlinien wie hier gestartete Ausführungen.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>ArtifactActions</name>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Image — %1</source>
        <translation>Bild — %1</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>&amp;Save As…</source>
        <translation>&amp;Speichern unter …</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>JPEG image (*.jpg *.jpeg);;All files (*)</source>
        <translation>JPEG-Bild (*.jpg *.jpeg);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>GIF image (*.gif);;All files (*)</source>
        <translation>GIF-Bild (*.gif);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>SVG image (*.svg);;All files (*)</source>
        <translation>SVG-Bild (*.svg);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>PNG image (*.png);;All files (*)</source>
        <translation>PNG-Bild (*.png);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save Image</source>
        <translation>Bild speichern</translation>
    </message>
    <message>
        <source>Could not save the image to %1: %2</source>
        <translation>Das Bild konnte nicht unter %1 gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Open Artifact</source>
        <translation>Artefakt öffnen</translation>
    </message>
    <message>
        <source>Could not create a temporary folder: %1</source>
        <translation>Es konnte kein temporärer Ordner angelegt werden: %1</translation>
    </message>
    <message>
        <source>No application could open %1.</source>
        <translation>Keine Anwendung konnte %1 öffnen.</translation>
    </message>
    <message>
        <source>Save Artifact</source>
        <translation>Artefakt speichern</translation>
    </message>
</context>
<context>
    <name>ArtifactGallery</name>
    <message>
        <source>Artifacts</source>
        <translation>Artefakte</translation>
    </message>
    <message>
        <source>Save All…</source>
        <translation>Alle speichern …</translation>
    </message>
    <message>
        <source>Save every artifact to a folder</source>
        <translation>Alle Artefakte in einen Ordner speichern</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Remove all artifacts from the gallery</source>
        <translation>Alle Artefakte aus der Galerie entfernen</translation>
    </message>
    <message>
        <source>Double-click to open</source>
        <translation>Doppelklicken zum Öffnen</translation>
    </message>
    <message>
        <source>Double-click to view full size</source>
        <translation>Doppelklicken für volle Größe</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Save All Artifacts</source>
        <translation>Alle Artefakte speichern</translation>
    </message>
    <message numerus="yes">
        <source>%n artifact(s) saved. %1</source>
        <translation>
            <numerusform>%n Artefakt gespeichert. %1</numerusform>
            <numerusform>%n Artefakte gespeichert. %1</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;View Full Size</source>
        <translation>In voller &amp;Größe anzeigen</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>&amp;Save As…</source>
        <translation>&amp;Speichern unter …</translation>
    </message>
    <message>
        <source>&amp;Copy Image</source>
        <translation>Bild &amp;kopieren</translation>
    </message>
    <message>
        <source>Save &amp;All…</source>
        <translation>&amp;Alle speichern …</translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation>&amp;Leeren</translation>
    </message>
    <message>
        <source>No artifacts yet</source>
        <translation>Noch keine Artefakte</translation>
    </message>
    <message numerus="yes">
        <source>%n artifact(s) · %1</source>
        <translation>
            <numerusform>%n Artefakt · %1</numerusform>
            <numerusform>%n Artefakte · %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BackendPreferencesPage</name>
    <message>
        <source>Backend kind</source>
        <translation>Art des Backends</translation>
    </message>
    <message>
        <source>Docker</source>
        <translation>Docker</translation>
    </message>
    <message>
        <source>Docker over TLS</source>
        <translation>Docker über TLS</translation>
    </message>
    <message>
        <source>Podman</source>
        <translation>Podman</translation>
    </message>
    <message>
        <source>Kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>DOCKER_HOST or unix:///var/run/docker.sock</source>
        <translation>DOCKER_HOST oder unix:///var/run/docker.sock</translation>
    </message>
    <message>
        <source>Certificate folder</source>
        <translation>Zertifikatsordner</translation>
    </message>
    <message>
        <source>DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem)</source>
        <translation>DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem)</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;Endpoint:</source>
        <translation>&amp;Endpunkt:</translation>
    </message>
    <message>
        <source>&amp;Certificates:</source>
        <translation>&amp;Zertifikate:</translation>
    </message>
    <message>
        <source>Used from the next start on. Leave the endpoint empty to follow DOCKER_HOST or the local socket.</source>
        <translation>Gilt ab dem nächsten Start. Lassen Sie den Endpunkt leer, um DOCKER_HOST oder dem lokalen Socket zu folgen.</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
</context>
<context>
    <name>BackendProfileDialog</name>
    <message>
        <source>Backend Profiles</source>
        <translation>Backend-Profile</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>Profile</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Docker (local socket or DOCKER_HOST)</source>
        <translation>Docker (lokaler Socket oder DOCKER_HOST)</translation>
    </message>
    <message>
        <source>Podman (API socket)</source>
        <translation>Podman (API-Socket)</translation>
    </message>
    <message>
        <source>Remote Docker over mutual TLS</source>
        <translation>Entferntes Docker über gegenseitiges TLS</translation>
    </message>
    <message>
        <source>Kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;Endpoint:</source>
        <translation>&amp;Endpunkt:</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>Ordner wählen</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>Datei wählen</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>folder with ca.pem, cert.pem, key.pem (DOCKER_CERT_PATH)</source>
        <translation>Ordner mit ca.pem, cert.pem, key.pem (DOCKER_CERT_PATH)</translation>
    </message>
    <message>
        <source>default: ca.pem in the folder</source>
        <translation>Standard: ca.pem im Ordner</translation>
    </message>
    <message>
        <source>default: cert.pem in the folder</source>
        <translation>Standard: cert.pem im Ordner</translation>
    </message>
    <message>
        <source>default: key.pem in the folder</source>
        <translation>Standard: key.pem im Ordner</translation>
    </message>
    <message>
        <source>&amp;Verify the server&apos;s certificate (DOCKER_TLS_VERIFY)</source>
        <translation>Zertifikat des Servers &amp;prüfen (DOCKER_TLS_VERIFY)</translation>
    </message>
    <message>
        <source>Certificate &amp;folder:</source>
        <translation>Zertifikats&amp;ordner:</translation>
    </message>
    <message>
        <source>C&amp;A certificate:</source>
        <translation>C&amp;A-Zertifikat:</translation>
    </message>
    <message>
        <source>Client &amp;certificate:</source>
        <translation>&amp;Client-Zertifikat:</translation>
    </message>
    <message>
        <source>Client &amp;key:</source>
        <translation>Client-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>default: $KUBECONFIG or ~/.kube/config</source>
        <translation>Standard: $KUBECONFIG oder ~/.kube/config</translation>
    </message>
    <message>
        <source>default: current-context</source>
        <translation>Standard: current-context</translation>
    </message>
    <message>
        <source>default: the context&apos;s namespace</source>
        <translation>Standard: der Namespace des Kontexts</translation>
    </message>
    <message>
        <source>Kube&amp;config:</source>
        <translation>Kube&amp;config:</translation>
    </message>
    <message>
        <source>C&amp;ontext:</source>
        <translation>K&amp;ontext:</translation>
    </message>
    <message>
        <source>Na&amp;mespace:</source>
        <translation>Na&amp;mespace:</translation>
    </message>
    <message>
        <source>&amp;Test Connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Built in: follows the environment (%1).</source>
        <translation>Eingebaut: folgt der Umgebung (%1).</translation>
    </message>
    <message>
        <source>default: DOCKER_HOST or unix:///var/run/docker.sock</source>
        <translation>Standard: DOCKER_HOST oder unix:///var/run/docker.sock</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>tcp://HOST:2376</source>
        <translation>tcp://HOST:2376</translation>
    </message>
    <message>
        <source>from the kubeconfig</source>
        <translation>aus der kubeconfig</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>Neues Profil</translation>
    </message>
    <message>
        <source>New profile %1</source>
        <translation>Neues Profil %1</translation>
    </message>
    <message>
        <source>Fill in the endpoint and certificates, then Save.</source>
        <translation>Endpunkt und Zertifikate eintragen, dann Speichern.</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>Gespeichert.</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1…</translation>
    </message>
    <message>
        <source>Connected: %1</source>
        <translation>Verbunden: %1</translation>
    </message>
    <message>
        <source> (endpoint %1)</source>
        <translation> (Endpunkt %1)</translation>
    </message>
    <message>
        <source>Profile &apos;%1&apos;: %2</source>
        <translation>Profil „%1“: %2</translation>
    </message>
    <message>
        <source>Certificate folder</source>
        <translation>Zertifikatsordner</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>default: the run&apos;s limit</source>
        <translation>Standard: das Limit des Laufs</translation>
    </message>
    <message>
        <source>CPU request:</source>
        <translation>CPU-Anforderung:</translation>
    </message>
    <message>
        <source>CPU limit:</source>
        <translation>CPU-Limit:</translation>
    </message>
    <message>
        <source> (e.g. 500m, 2)</source>
        <translation> (z. B. 500m, 2)</translation>
    </message>
    <message>
        <source>Memory request:</source>
        <translation>Speicheranforderung:</translation>
    </message>
    <message>
        <source>Memory limit:</source>
        <translation>Speicherlimit:</translation>
    </message>
    <message>
        <source> (e.g. 1Gi)</source>
        <translation> (z. B. 1Gi)</translation>
    </message>
    <message>
        <source>Ephemeral storage:</source>
        <translation>Flüchtiger Speicher:</translation>
    </message>
    <message>
        <source>e.g. 2Gi</source>
        <translation>z. B. 2Gi</translation>
    </message>
    <message>
        <source>Runtime class:</source>
        <translation>Runtime-Klasse:</translation>
    </message>
    <message>
        <source>e.g. gvisor, kata</source>
        <translation>z. B. gvisor, kata</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>The cluster ends a sandbox pod after this long even if Sandbox Studio is gone.</source>
        <translation>Der Cluster beendet einen Sandbox-Pod nach dieser Zeit, auch wenn Sandbox Studio nicht mehr läuft.</translation>
    </message>
    <message>
        <source>Pod deadline:</source>
        <translation>Pod-Frist:</translation>
    </message>
    <message>
        <source>How long to wait for a pod to be running (image pulls count).</source>
        <translation>Wie lange auf einen laufenden Pod gewartet wird (Image-Downloads zählen mit).</translation>
    </message>
    <message>
        <source>Start timeout:</source>
        <translation>Start-Zeitlimit:</translation>
    </message>
    <message>
        <source>Scheduling</source>
        <translation>Scheduling</translation>
    </message>
    <message>
        <source>Node selector:</source>
        <translation>Node-Selektor:</translation>
    </message>
    <message>
        <source>one key=value per line, e.g. disktype=ssd</source>
        <translation>ein Schlüssel=Wert pro Zeile, z. B. disktype=ssd</translation>
    </message>
    <message>
        <source>Tolerations:</source>
        <translation>Tolerations:</translation>
    </message>
    <message>
        <source>one per line: key=value:Effect, key:Effect (exists), * (all); NoExecute@seconds</source>
        <translation>eine pro Zeile: key=value:Effect, key:Effect (exists), * (alle); NoExecute@Sekunden</translation>
    </message>
    <message>
        <source>Service account:</source>
        <translation>Dienstkonto:</translation>
    </message>
    <message>
        <source>default: none</source>
        <translation>Standard: keines</translation>
    </message>
    <message>
        <source>Image registry:</source>
        <translation>Image-Registry:</translation>
    </message>
    <message>
        <source>prefix the cluster pulls from, e.g. registry.example.com/team</source>
        <translation>Präfix, von dem der Cluster lädt, z. B. registry.example.com/team</translation>
    </message>
    <message>
        <source>Pull policy:</source>
        <translation>Pull-Richtlinie:</translation>
    </message>
    <message>
        <source>Pull secrets:</source>
        <translation>Pull-Secrets:</translation>
    </message>
    <message>
        <source>one secret name per line</source>
        <translation>ein Secret-Name pro Zeile</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>Metadaten</translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation>Labels:</translation>
    </message>
    <message>
        <source>one key=value per line</source>
        <translation>ein Schlüssel=Wert pro Zeile</translation>
    </message>
    <message>
        <source>Annotations:</source>
        <translation>Annotationen:</translation>
    </message>
    <message>
        <source>Manifest</source>
        <translation>Manifest</translation>
    </message>
    <message>
        <source>Merged over the generated pod (YAML or JSON): objects merge key by key, null removes a key.</source>
        <translation>Wird über den erzeugten Pod gelegt (YAML oder JSON): Objekte werden Schlüssel für Schlüssel zusammengeführt, null entfernt einen Schlüssel.</translation>
    </message>
</context>
<context>
    <name>ClaudeDesktopDialog</name>
    <message>
        <source>Configure Claude Desktop</source>
        <translation>Claude Desktop einrichten</translation>
    </message>
    <message>
        <source>Claude Desktop starts Sandbox Studio by itself (&lt;tt&gt;%1 mcp&lt;/tt&gt;, over stdio) when its configuration lists it. Add the entry below to &lt;tt&gt;%2&lt;/tt&gt;, or copy it there yourself. Your other servers and settings are kept, and the previous file is backed up next to it. Restart Claude Desktop afterwards.</source>
        <translation>Claude Desktop startet Sandbox Studio selbst (&lt;tt&gt;%1 mcp&lt;/tt&gt;, über stdio), wenn seine Konfiguration es aufführt. Fügen Sie den Eintrag unten zu &lt;tt&gt;%2&lt;/tt&gt; hinzu oder kopieren Sie ihn selbst dorthin. Ihre anderen Server und Einstellungen bleiben erhalten, und die bisherige Datei wird daneben gesichert. Starten Sie Claude Desktop danach neu.</translation>
    </message>
    <message>
        <source>&amp;Add to Claude Desktop</source>
        <translation>Zu Claude Desktop &amp;hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Copy JSON</source>
        <translation>JSON &amp;kopieren</translation>
    </message>
    <message>
        <source>The JSON is on the clipboard.</source>
        <translation>Das JSON ist in der Zwischenablage.</translation>
    </message>
    <message>
        <source>Could not configure Claude Desktop: %1</source>
        <translation>Claude Desktop konnte nicht eingerichtet werden: %1</translation>
    </message>
    <message>
        <source>The file was not changed.</source>
        <translation>Die Datei wurde nicht geändert.</translation>
    </message>
    <message>
        <source>%1 already lists Sandbox Studio; nothing to change.</source>
        <translation>%1 führt Sandbox Studio bereits auf; es gibt nichts zu ändern.</translation>
    </message>
    <message>
        <source>Created %1 with Sandbox Studio. Restart Claude Desktop to use it.</source>
        <translation>%1 wurde mit Sandbox Studio angelegt. Starten Sie Claude Desktop neu, um es zu nutzen.</translation>
    </message>
    <message>
        <source>Added Sandbox Studio to %1.
The previous file is kept as %2.
Restart Claude Desktop to use it.</source>
        <translation>Sandbox Studio wurde zu %1 hinzugefügt.
Die bisherige Datei bleibt als %2 erhalten.
Starten Sie Claude Desktop neu, um es zu nutzen.</translation>
    </message>
</context>
<context>
    <name>CodeEditor</name>
    <message>
        <source>Code editor</source>
        <translation>Code-Editor</translation>
    </message>
    <message>
        <source>Policy %1 (%2, %3): %4</source>
        <translation>Richtlinie %1 (%2, %3): %4</translation>
    </message>
</context>
<context>
    <name>EngineBanner</name>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>Container engine problem</source>
        <translation>Problem mit der Container-Engine</translation>
    </message>
    <message>
        <source>Check the container engine again</source>
        <translation>Die Container-Engine erneut prüfen</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Wird geprüft …</translation>
    </message>
</context>
<context>
    <name>FirstRunDialog</name>
    <message>
        <source>Start the Podman service: systemctl --user start podman.socket (or sudo systemctl start podman.socket).</source>
        <translation>Starten Sie den Podman-Dienst: systemctl --user start podman.socket (oder sudo systemctl start podman.socket).</translation>
    </message>
    <message>
        <source>Optional. Install it with: sudo apt install podman, then: systemctl --user enable --now podman.socket</source>
        <translation>Optional. Installieren mit: sudo apt install podman, danach: systemctl --user enable --now podman.socket</translation>
    </message>
    <message>
        <source>Start Docker: sudo systemctl start docker. If access is denied, join the docker group: sudo usermod -aG docker $USER, then log in again.</source>
        <translation>Starten Sie Docker: sudo systemctl start docker. Wird der Zugriff verweigert, treten Sie der Gruppe docker bei: sudo usermod -aG docker $USER, und melden Sie sich neu an.</translation>
    </message>
    <message>
        <source>Install it with: sudo apt install docker.io, then: sudo systemctl enable --now docker</source>
        <translation>Installieren mit: sudo apt install docker.io, danach: sudo systemctl enable --now docker</translation>
    </message>
    <message>
        <source>&amp;Build Missing Images</source>
        <translation>Fehlende Images &amp;bauen</translation>
    </message>
    <message>
        <source>&amp;Cancel Build</source>
        <translation>Bau &amp;abbrechen</translation>
    </message>
    <message>
        <source>Check &amp;Again</source>
        <translation>Erneut &amp;prüfen</translation>
    </message>
    <message>
        <source>Set Up Sandbox Studio</source>
        <translation>Sandbox Studio einrichten</translation>
    </message>
    <message>
        <source>Sandbox Studio runs code in containers. It needs a running container engine and one sandbox image per language.</source>
        <translation>Sandbox Studio führt Code in Containern aus. Dazu braucht es eine laufende Container-Engine und ein Sandbox-Image je Sprache.</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Container engines</source>
        <translation>Container-Engines</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Sandbox images</source>
        <translation>Sandbox-Images</translation>
    </message>
    <message>
        <source>Image build progress</source>
        <translation>Fortschritt des Image-Baus</translation>
    </message>
    <message>
        <source>&lt;b&gt;Container engines&lt;/b&gt;</source>
        <translation>&lt;b&gt;Container-Engines&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sandbox images&lt;/b&gt;</source>
        <translation>&lt;b&gt;Sandbox-Images&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Looking for container engines…</source>
        <translation>Suche nach Container-Engines …</translation>
    </message>
    <message>
        <source>Running: %1 at %2</source>
        <translation>Läuft: %1 unter %2</translation>
    </message>
    <message>
        <source>Not answering at %1: %2
%3</source>
        <translation>Antwortet nicht unter %1: %2
%3</translation>
    </message>
    <message>
        <source>Not found (%1)
%2</source>
        <translation>Nicht gefunden (%1)
%2</translation>
    </message>
    <message>
        <source>No container engine answers. Install and start Docker (or Podman) as shown above, then press Check Again.</source>
        <translation>Keine Container-Engine antwortet. Installieren und starten Sie Docker (oder Podman) wie oben gezeigt und wählen Sie dann „Erneut prüfen“.</translation>
    </message>
    <message>
        <source>Found: %1. Runs use Docker&apos;s API; set the Podman socket as the endpoint in Preferences ▸ Backend to use it.</source>
        <translation>Gefunden: %1. Ausführungen nutzen die Docker-API; tragen Sie den Podman-Socket unter Einstellungen ▸ Backend als Endpunkt ein, um Podman zu verwenden.</translation>
    </message>
    <message>
        <source>Found: %1.</source>
        <translation>Gefunden: %1.</translation>
    </message>
    <message>
        <source>Unknown (no engine answers)</source>
        <translation>Unbekannt (keine Engine antwortet)</translation>
    </message>
    <message>
        <source>Present (%1)</source>
        <translation>Vorhanden (%1)</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>Fehlt</translation>
    </message>
    <message>
        <source>Images can be checked once an engine answers.</source>
        <translation>Die Images lassen sich prüfen, sobald eine Engine antwortet.</translation>
    </message>
    <message>
        <source>All sandbox images are present.</source>
        <translation>Alle Sandbox-Images sind vorhanden.</translation>
    </message>
    <message>
        <source>Missing: %1. Building needs root and debootstrap and takes a few minutes per image (or run: sudo sandbox-studio images ensure %1).</source>
        <translation>Es fehlen: %1. Der Bau braucht root und debootstrap und dauert einige Minuten je Image (oder führen Sie aus: sudo sandbox-studio images ensure %1).</translation>
    </message>
    <message>
        <source>The build was cancelled.</source>
        <translation>Der Bau wurde abgebrochen.</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Wird gestartet</translation>
    </message>
    <message>
        <source>Image %1 of %2: %3% · %4</source>
        <translation>Image %1 von %2: %3 % · %4</translation>
    </message>
    <message>
        <source>Building the %1 image failed: %2</source>
        <translation>Der Bau des Images %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen …</translation>
    </message>
    <message>
        <source>Engine summary</source>
        <translation>Zusammenfassung der Engines</translation>
    </message>
</context>
<context>
    <name>GeneralPreferencesPage</name>
    <message>
        <source>Check engines and images at every start</source>
        <translation>Engines und Images bei jedem Start prüfen</translation>
    </message>
    <message>
        <source>Interface language</source>
        <translation>Sprache der Oberfläche</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Dem System folgen</translation>
    </message>
    <message>
        <source>Light (Fusion)</source>
        <translation>Hell (Fusion)</translation>
    </message>
    <message>
        <source>Dark (Fusion)</source>
        <translation>Dunkel (Fusion)</translation>
    </message>
    <message>
        <source>Interface &amp;language:</source>
        <translation>&amp;Sprache der Oberfläche:</translation>
    </message>
    <message>
        <source>A new language applies after a restart.</source>
        <translation>Eine neue Sprache gilt nach einem Neustart.</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Farbschema:</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
</context>
<context>
    <name>ImageManager</name>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Images of the engine</source>
        <translation>Images der Engine</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>Entfernen …</translation>
    </message>
    <message>
        <source>Use for Runs</source>
        <translation>Für Ausführungen nutzen</translation>
    </message>
    <message>
        <source>Run code and notebooks on the selected image</source>
        <translation>Code und Notizbücher auf dem ausgewählten Image ausführen</translation>
    </message>
    <message>
        <source>Build from a Dockerfile</source>
        <translation>Aus einem Dockerfile bauen</translation>
    </message>
    <message>
        <source>Folder with a Dockerfile</source>
        <translation>Ordner mit einem Dockerfile</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>Kontext:</translation>
    </message>
    <message>
        <source>Tag:</source>
        <translation>Tag:</translation>
    </message>
    <message>
        <source>No network (offline)</source>
        <translation>Kein Netzwerk (offline)</translation>
    </message>
    <message>
        <source>Host network</source>
        <translation>Host-Netzwerk</translation>
    </message>
    <message>
        <source>Build</source>
        <translation>Bauen</translation>
    </message>
    <message>
        <source>RUN steps:</source>
        <translation>RUN-Schritte:</translation>
    </message>
    <message>
        <source>Import or pull</source>
        <translation>Importieren oder herunterladen</translation>
    </message>
    <message>
        <source>rootfs.tar (tar, tar.gz, tar.xz)</source>
        <translation>rootfs.tar (tar, tar.gz, tar.xz)</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Root filesystem:</source>
        <translation>Wurzeldateisystem:</translation>
    </message>
    <message>
        <source>Pull</source>
        <translation>Herunterladen</translation>
    </message>
    <message>
        <source>By name:</source>
        <translation>Nach Name:</translation>
    </message>
    <message>
        <source>Build, import and pull logs appear here.</source>
        <translation>Protokolle von Bauen, Import und Herunterladen erscheinen hier.</translation>
    </message>
    <message>
        <source>No container engine is available: start Docker, then Refresh.</source>
        <translation>Keine Container-Engine verfügbar: Starten Sie Docker und klicken Sie dann auf „Aktualisieren“.</translation>
    </message>
    <message>
        <source>Busy: wait for the current operation to finish.</source>
        <translation>Beschäftigt: Warten Sie, bis der laufende Vorgang abgeschlossen ist.</translation>
    </message>
    <message>
        <source>No container</source>
        <translation>Kein Container</translation>
    </message>
    <message numerus="yes">
        <source>%n image(s)</source>
        <translation>
            <numerusform>%n Image</numerusform>
            <numerusform>%n Images</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not list the images: %1</source>
        <translation>Die Images konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>language image</source>
        <translation>Sprach-Image</translation>
    </message>
    <message>
        <source>template (%1)</source>
        <translation>Vorlage (%1)</translation>
    </message>
    <message>
        <source>image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Name a context folder (with a Dockerfile) and a tag to build.</source>
        <translation>Geben Sie zum Bauen einen Kontextordner (mit einem Dockerfile) und ein Tag an.</translation>
    </message>
    <message>
        <source>Building %1…</source>
        <translation>%1 wird gebaut …</translation>
    </message>
    <message>
        <source>Name a root filesystem tarball and a reference to import it as.</source>
        <translation>Geben Sie ein Tarball des Wurzeldateisystems und einen Namen an, unter dem es importiert wird.</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 wird importiert …</translation>
    </message>
    <message>
        <source>Name an image to pull, e.g. python:3.12-slim.</source>
        <translation>Geben Sie ein Image zum Herunterladen an, z. B. python:3.12-slim.</translation>
    </message>
    <message>
        <source>Pulling %1…</source>
        <translation>%1 wird heruntergeladen …</translation>
    </message>
    <message>
        <source>Removing %1…</source>
        <translation>%1 wird entfernt …</translation>
    </message>
    <message>
        <source>Remove the image %1?</source>
        <translation>Das Image %1 entfernen?</translation>
    </message>
    <message>
        <source>It is a language&apos;s image: it is built again (a few minutes) the next time that language needs it.</source>
        <translation>Es ist das Image einer Sprache: Es wird neu gebaut (einige Minuten), wenn diese Sprache es das nächste Mal braucht.</translation>
    </message>
    <message>
        <source>Remove image</source>
        <translation>Image entfernen</translation>
    </message>
    <message>
        <source>Build context (a folder with a Dockerfile)</source>
        <translation>Build-Kontext (ein Ordner mit einem Dockerfile)</translation>
    </message>
    <message>
        <source>Root filesystem tarball</source>
        <translation>Tarball des Wurzeldateisystems</translation>
    </message>
    <message>
        <source>Tar archives (*.tar *.tar.gz *.tgz *.tar.xz *.tar.bz2);;All files (*)</source>
        <translation>Tar-Archive (*.tar *.tar.gz *.tgz *.tar.xz *.tar.bz2);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Network during RUN steps</source>
        <translation>Netzwerk während der RUN-Schritte</translation>
    </message>
    <message>
        <source>Image name to import as</source>
        <translation>Image-Name für den Import</translation>
    </message>
    <message>
        <source>Image to pull</source>
        <translation>Herunterzuladendes Image</translation>
    </message>
    <message>
        <source>Build, import and pull log</source>
        <translation>Protokoll von Bauen, Import und Herunterladen</translation>
    </message>
</context>
<context>
    <name>LimitsPanel</name>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>Speichergrenze</translation>
    </message>
    <message>
        <source>Memory the sandbox may use (swap included); the program is killed when it needs more.</source>
        <translation>Speicher, den die Sandbox nutzen darf (Swap eingeschlossen); braucht das Programm mehr, wird es beendet.</translation>
    </message>
    <message>
        <source>Process limit</source>
        <translation>Prozessgrenze</translation>
    </message>
    <message>
        <source>Processes and threads the sandbox may run at once.</source>
        <translation>Prozesse und Threads, die in der Sandbox gleichzeitig laufen dürfen.</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitgrenze</translation>
    </message>
    <message>
        <source>Wall time of the program; it is killed at the limit.</source>
        <translation>Laufzeit des Programms; an der Grenze wird es beendet.</translation>
    </message>
    <message>
        <source> KiB</source>
        <translation> KiB</translation>
    </message>
    <message>
        <source>Output limit</source>
        <translation>Ausgabegrenze</translation>
    </message>
    <message>
        <source>Output (stdout and stderr) kept from a run; the rest is dropped and the run is flagged as truncated.</source>
        <translation>Von einer Ausführung behaltene Ausgabe (stdout und stderr); der Rest wird verworfen und die Ausführung als gekürzt markiert.</translation>
    </message>
    <message>
        <source>Allow network access</source>
        <translation>Netzwerkzugriff erlauben</translation>
    </message>
    <message>
        <source> cores</source>
        <translation> Kerne</translation>
    </message>
    <message>
        <source>CPU limit</source>
        <translation>CPU-Grenze</translation>
    </message>
    <message>
        <source>CPU time the sandbox may use, in cores (1.5 = one and a half).</source>
        <translation>CPU-Zeit, die die Sandbox nutzen darf, in Kernen (1,5 = anderthalb).</translation>
    </message>
    <message>
        <source>Network access</source>
        <translation>Netzwerkzugriff</translation>
    </message>
    <message>
        <source>Off by default: the sandbox has no network interface except loopback. Turn on only for code you trust to reach the internet.</source>
        <translation>Standardmäßig aus: Die Sandbox hat außer Loopback keine Netzwerkschnittstelle. Schalten Sie es nur für Code ein, dem Sie den Zugang zum Internet anvertrauen.</translation>
    </message>
    <message>
        <source>detected from imports</source>
        <translation>aus den Imports erkannt</translation>
    </message>
    <message>
        <source>Libraries to install</source>
        <translation>Zu installierende Bibliotheken</translation>
    </message>
    <message>
        <source>Packages installed before the run with the language&apos;s own package manager (pip, npm, Maven g:a:v, Go modules, R packages), separated by commas or spaces. Leave empty to detect them from the code&apos;s imports. Installs use the network; the program itself runs with network off unless allowed above.</source>
        <translation>Pakete, die vor der Ausführung mit dem Paketmanager der Sprache installiert werden (pip, npm, Maven g:a:v, Go-Module, R-Pakete), getrennt durch Kommas oder Leerzeichen. Leer lassen, um sie aus den Imports des Codes zu erkennen. Installationen nutzen das Netzwerk; das Programm selbst läuft ohne Netzwerk, sofern es oben nicht erlaubt ist.</translation>
    </message>
    <message>
        <source>Language standard</source>
        <translation>Sprachstandard</translation>
    </message>
    <message>
        <source>Language standard the compiler uses.</source>
        <translation>Sprachstandard, den der Compiler verwendet.</translation>
    </message>
    <message>
        <source>&amp;CPU:</source>
        <translation>&amp;CPU:</translation>
    </message>
    <message>
        <source>&amp;Memory:</source>
        <translation>Spe&amp;icher:</translation>
    </message>
    <message>
        <source>&amp;Processes:</source>
        <translation>&amp;Prozesse:</translation>
    </message>
    <message>
        <source>&amp;Time:</source>
        <translation>&amp;Zeit:</translation>
    </message>
    <message>
        <source>&amp;Output:</source>
        <translation>A&amp;usgabe:</translation>
    </message>
    <message>
        <source>&amp;Libraries:</source>
        <translation>Bibli&amp;otheken:</translation>
    </message>
    <message>
        <source>&amp;Standard:</source>
        <translation>S&amp;tandard:</translation>
    </message>
    <message>
        <source>Reset to defaults</source>
        <translation>Auf Standardwerte zurücksetzen</translation>
    </message>
    <message>
        <source>Reset limits to defaults</source>
        <translation>Grenzen auf Standardwerte zurücksetzen</translation>
    </message>
    <message>
        <source>Applied to the next run.</source>
        <translation>Gilt für die nächste Ausführung.</translation>
    </message>
    <message>
        <source>Work directory size</source>
        <translation>Größe des Arbeitsverzeichnisses</translation>
    </message>
    <message>
        <source>Size of the sandbox&apos;s work directory (/sandbox, in memory); writes beyond it fail with &quot;no space left&quot;.</source>
        <translation>Größe des Arbeitsverzeichnisses der Sandbox (/sandbox, im Speicher); Schreibvorgänge darüber hinaus scheitern mit „no space left“.</translation>
    </message>
    <message>
        <source>&amp;Work dir:</source>
        <translation>Arbeits&amp;verzeichnis:</translation>
    </message>
    <message>
        <source>Memory the sandbox may use (swap included); the program is killed when it needs more. %1 needs at least %2 MiB.</source>
        <translation>Speicher, den die Sandbox nutzen darf (Swap eingeschlossen); braucht das Programm mehr, wird es beendet. %1 braucht mindestens %2 MiB.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Sandbox Studio</source>
        <translation>Sandbox Studio</translation>
    </message>
    <message>
        <source>No container engine was set up.</source>
        <translation>Es wurde keine Container-Engine eingerichtet.</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>Aus&amp;führen</translation>
    </message>
    <message>
        <source>Run the code in a fresh sandbox (%1)</source>
        <translation>Den Code in einer frischen Sandbox ausführen (%1)</translation>
    </message>
    <message>
        <source>Run the code in a fresh, isolated sandbox</source>
        <translation>Den Code in einer frischen, isolierten Sandbox ausführen</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <source>Stop the run and remove its sandbox (%1)</source>
        <translation>Die Ausführung stoppen und ihre Sandbox entfernen (%1)</translation>
    </message>
    <message>
        <source>Stop the running program</source>
        <translation>Das laufende Programm stoppen</translation>
    </message>
    <message>
        <source>&amp;Clear Output</source>
        <translation>Ausgabe &amp;leeren</translation>
    </message>
    <message>
        <source>Clear the output (%1)</source>
        <translation>Die Ausgabe leeren (%1)</translation>
    </message>
    <message>
        <source>&amp;Notebook</source>
        <translation>&amp;Notizbuch</translation>
    </message>
    <message>
        <source>Switch between the script and an interactive notebook whose variables persist between cells (%1)</source>
        <translation>Zwischen dem Skript und einem interaktiven Notizbuch wechseln, dessen Variablen zwischen den Zellen erhalten bleiben (%1)</translation>
    </message>
    <message>
        <source>Show the notebook or the script</source>
        <translation>Das Notizbuch oder das Skript anzeigen</translation>
    </message>
    <message>
        <source>Check &amp;Engine Again</source>
        <translation>&amp;Engine erneut prüfen</translation>
    </message>
    <message>
        <source>&amp;About Sandbox Studio</source>
        <translation>Ü&amp;ber Sandbox Studio</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>Hauptwerkzeugleiste</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Language of the code</source>
        <translation>Sprache des Codes</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Container engine that runs the sandboxes</source>
        <translation>Container-Engine, die die Sandboxen ausführt</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <source>&amp;Backend:</source>
        <translation>&amp;Backend:</translation>
    </message>
    <message>
        <source>Write or paste code here, then press Ctrl+Return to run it in a sandbox.</source>
        <translation>Schreiben oder fügen Sie hier Code ein und drücken Sie Strg+Eingabe, um ihn in einer Sandbox auszuführen.</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>Grenzen</translation>
    </message>
    <message>
        <source>Artifacts</source>
        <translation>Artefakte</translation>
    </message>
    <message>
        <source>Sandbox Pool</source>
        <translation>Sandbox-Pool</translation>
    </message>
    <message>
        <source>Notebook cell %1</source>
        <translation>Notizbuchzelle %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Switch Notebook Language</source>
        <translation>Sprache des Notizbuchs wechseln</translation>
    </message>
    <message>
        <source>The notebook&apos;s %1 kernel is running. Switch the notebook to %2? The %1 kernel is closed and its variables are lost.</source>
        <translation>Der %1-Kernel des Notizbuchs läuft. Das Notizbuch auf %2 umstellen? Der %1-Kernel wird geschlossen und seine Variablen gehen verloren.</translation>
    </message>
    <message>
        <source>Could not save the code to %1: %2</source>
        <translation>Der Code konnte nicht unter %1 gespeichert werden: %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Run %1 · %2</source>
        <translation>Ausführung %1 · %2</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Wird gestartet</translation>
    </message>
    <message>
        <source>No container engine is available: start Docker and press Retry.</source>
        <translation>Keine Container-Engine verfügbar: Starten Sie Docker und wählen Sie „Erneut versuchen“.</translation>
    </message>
    <message>
        <source>Stopped before the program started.</source>
        <translation>Gestoppt, bevor das Programm begann.</translation>
    </message>
    <message>
        <source>Finished in %1 s</source>
        <translation>Fertig nach %1 s</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>Ausführung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>Wird gestoppt</translation>
    </message>
    <message>
        <source>stopping…</source>
        <translation>wird gestoppt …</translation>
    </message>
    <message>
        <source>%1… %2 s</source>
        <translation>%1 … %2 s</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbindung zu %1 …</translation>
    </message>
    <message>
        <source>%1 %2, API %3, %4</source>
        <translation>%1 %2, API %3, %4</translation>
    </message>
    <message>
        <source>The sandbox engine could not be started: %1</source>
        <translation>Die Sandbox-Engine konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 unter %2</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Load a code file into the editor</source>
        <translation>Eine Code-Datei in den Editor laden</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter …</translation>
    </message>
    <message>
        <source>Write the editor&apos;s code to a file</source>
        <translation>Den Code des Editors in eine Datei schreiben</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>Sandbox Studio &amp;Help</source>
        <translation>Sandbox-Studio-&amp;Hilfe</translation>
    </message>
    <message>
        <source>Check &amp;Setup…</source>
        <translation>&amp;Einrichtung prüfen …</translation>
    </message>
    <message>
        <source>Check the container engines and the sandbox images</source>
        <translation>Die Container-Engines und die Sandbox-Images prüfen</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>%1 konnte nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Open Code</source>
        <translation>Code öffnen</translation>
    </message>
    <message>
        <source>Code (*.py *.js *.mjs *.java *.cpp *.cc *.cxx *.go *.R *.r);;All files (*)</source>
        <translation>Code (*.py *.js *.mjs *.java *.cpp *.cc *.cxx *.go *.R *.r);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save Code As</source>
        <translation>Code speichern unter</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
    <message>
        <source>Sandbox Studio Help</source>
        <translation>Sandbox-Studio-Hilfe</translation>
    </message>
    <message>
        <source>Notebook</source>
        <translation>Notizbuch</translation>
    </message>
    <message>
        <source>&amp;Backend Profiles…</source>
        <translation>&amp;Backend-Profile…</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>start the podman service (podman system service --time=0 unix:///run/podman/podman.sock)</source>
        <translation>starten Sie den Podman-Dienst (podman system service --time=0 unix:///run/podman/podman.sock)</translation>
    </message>
    <message>
        <source>check that dockerd listens there with --tlsverify</source>
        <translation>prüfen Sie, dass dockerd dort mit --tlsverify lauscht</translation>
    </message>
    <message>
        <source>start it (sudo dockerd, or sudo systemctl start docker)</source>
        <translation>starten Sie es (sudo dockerd oder sudo systemctl start docker)</translation>
    </message>
    <message>
        <source>%1 is not reachable at %2 (profile &apos;%3&apos;) — %4 and press Retry.</source>
        <translation>%1 ist unter %2 nicht erreichbar (Profil „%3“) – %4 und klicken Sie auf Erneut versuchen.</translation>
    </message>
    <message>
        <source>The TLS connection to %1 (profile &apos;%2&apos;) failed — check the CA, client certificate and key, then press Retry.</source>
        <translation>Die TLS-Verbindung zu %1 (Profil „%2“) ist fehlgeschlagen – prüfen Sie CA, Client-Zertifikat und Schlüssel, dann klicken Sie auf Erneut versuchen.</translation>
    </message>
    <message>
        <source>%1 at %2 (profile &apos;%3&apos;) reported a problem: %4</source>
        <translation>%1 unter %2 (Profil „%3“) meldet ein Problem: %4</translation>
    </message>
    <message>
        <source>%1 not available · %2</source>
        <translation>%1 nicht verfügbar · %2</translation>
    </message>
    <message>
        <source>%1 not reachable · %2 · %3</source>
        <translation>%1 nicht erreichbar · %2 · %3</translation>
    </message>
    <message>
        <source>Manage profiles…</source>
        <translation>Profile verwalten…</translation>
    </message>
    <message>
        <source>The stored policy could not be read (%1); using standard.</source>
        <translation>Die gespeicherte Richtlinie konnte nicht gelesen werden (%1); es wird „Standard“ verwendet.</translation>
    </message>
    <message>
        <source>Security &amp;Policy…</source>
        <translation>Sicherheits&amp;richtlinie …</translation>
    </message>
    <message>
        <source>Rules every run is checked with before it starts: presets, severities, your rules</source>
        <translation>Regeln, mit denen jede Ausführung vor dem Start geprüft wird: Vorgaben, Schweregrade, Ihre Regeln</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Image the sandboxes run; empty = the language&apos;s own image. Custom images need the language&apos;s toolchain.</source>
        <translation>Image, auf dem die Sandboxen laufen; leer = das eigene Image der Sprache. Eigene Images brauchen die Werkzeuge der Sprache.</translation>
    </message>
    <message>
        <source>language default</source>
        <translation>Standard der Sprache</translation>
    </message>
    <message>
        <source>&amp;Image:</source>
        <translation>&amp;Image:</translation>
    </message>
    <message>
        <source>Session Files</source>
        <translation>Sitzungsdateien</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>Images</translation>
    </message>
    <message>
        <source>Save Session as &amp;Template…</source>
        <translation>Sitzung als &amp;Vorlage speichern …</translation>
    </message>
    <message>
        <source>Start a notebook session first: a template is saved from a running session.</source>
        <translation>Starten Sie zuerst eine Notizbuch-Sitzung: Eine Vorlage wird aus einer laufenden Sitzung gespeichert.</translation>
    </message>
    <message>
        <source>Save Session as Template</source>
        <translation>Sitzung als Vorlage speichern</translation>
    </message>
    <message>
        <source>Image name for the template (its files and installed packages come back in sessions started from it):</source>
        <translation>Image-Name für die Vorlage (ihre Dateien und installierten Pakete sind in Sitzungen, die daraus gestartet werden, wieder da):</translation>
    </message>
    <message>
        <source>Saving the session as %1…</source>
        <translation>Die Sitzung wird als %1 gespeichert …</translation>
    </message>
    <message>
        <source>Saved the session as %1; choose it as the image to start from it.</source>
        <translation>Die Sitzung wurde als %1 gespeichert; wählen Sie es als Image, um daraus zu starten.</translation>
    </message>
    <message>
        <source>Could not save the template: %1</source>
        <translation>Die Vorlage konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>line %1: %2 (%3)</source>
        <translation>Zeile %1: %2 (%3)</translation>
    </message>
    <message>
        <source>Run This Code?</source>
        <translation>Diesen Code ausführen?</translation>
    </message>
    <message>
        <source>The security policy asks before running this code:

%1

Run it in the sandbox anyway?</source>
        <translation>Die Sicherheitsrichtlinie fragt nach, bevor dieser Code ausgeführt wird:

%1

Trotzdem in der Sandbox ausführen?</translation>
    </message>
    <message>
        <source>MCP Server</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>MCP Activity</source>
        <translation>MCP-Aktivität</translation>
    </message>
    <message>
        <source>Configure &amp;Claude Desktop…</source>
        <translation>&amp;Claude Desktop einrichten …</translation>
    </message>
    <message>
        <source>Add Sandbox Studio to the MCP servers Claude Desktop starts</source>
        <translation>Sandbox Studio zu den MCP-Servern hinzufügen, die Claude Desktop startet</translation>
    </message>
    <message>
        <source>&amp;MCP</source>
        <translation>&amp;MCP</translation>
    </message>
    <message>
        <source>Cannot open code of the unknown language &quot;%1&quot;.</source>
        <translation>Code der unbekannten Sprache „%1“ kann nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>Open in Editor</source>
        <translation>Im Editor öffnen</translation>
    </message>
    <message>
        <source>Replace the code in the editor with the %1 code of %2?</source>
        <translation>Den Code im Editor durch den %1-Code von %2 ersetzen?</translation>
    </message>
    <message>
        <source>Your code is kept: Undo (Ctrl+Z) brings it back, and a copy is saved under %1.</source>
        <translation>Ihr Code bleibt erhalten: Rückgängig (Strg+Z) holt ihn zurück, und eine Kopie wird unter %1 gespeichert.</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>&amp;Ersetzen</translation>
    </message>
    <message>
        <source>Opened the code of %1.</source>
        <translation>Der Code von %1 wurde geöffnet.</translation>
    </message>
    <message>
        <source>Opened the code of %1. Your code: Undo, or %2</source>
        <translation>Der Code von %1 wurde geöffnet. Ihr Code: Rückgängig oder %2</translation>
    </message>
    <message>
        <source>Security Policy</source>
        <translation>Sicherheitsrichtlinie</translation>
    </message>
    <message numerus="yes">
        <source>Retrying automatically in %n s.</source>
        <translation>
            <numerusform>Neuer Versuch automatisch in %n s.</numerusform>
            <numerusform>Neuer Versuch automatisch in %n s.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>McpActivityFeed</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>MCP calls</source>
        <translation>MCP-Aufrufe</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Clear Finished</source>
        <translation>Abgeschlossene entfernen</translation>
    </message>
    <message>
        <source>Click a plot to view it full size</source>
        <translation>Klicken Sie auf einen Plot, um ihn in voller Größe anzuzeigen</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>Befunde</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>Plots</translation>
    </message>
    <message>
        <source>Open in Editor</source>
        <translation>Im Editor öffnen</translation>
    </message>
    <message>
        <source>Put this call&apos;s code in the main editor (your code is kept: you are asked first, and Undo brings it back)</source>
        <translation>Den Code dieses Aufrufs in den Haupteditor übernehmen (Ihr Code bleibt erhalten: Sie werden vorher gefragt, und Rückgängig holt ihn zurück)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Stop this call: its sandbox is removed and the client is told you stopped it</source>
        <translation>Diesen Aufruf stoppen: Seine Sandbox wird entfernt, und der Client erfährt, dass Sie ihn gestoppt haben</translation>
    </message>
    <message>
        <source>an MCP client</source>
        <translation>ein MCP-Client</translation>
    </message>
    <message>
        <source>MCP call %1 from %2 at %3</source>
        <translation>MCP-Aufruf %1 von %2 um %3</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>wird gestoppt</translation>
    </message>
    <message>
        <source>allowed, starting</source>
        <translation>erlaubt, startet</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>(further output is not kept here)</source>
        <translation>(weitere Ausgabe wird hier nicht aufbewahrt)</translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation>wartet auf Freigabe</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>stopped before it ran</source>
        <translation>gestoppt, bevor er lief</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeit überschritten</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>Speicher erschöpft</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>Status %1</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(unbenannt)</translation>
    </message>
    <message>
        <source>%1 via stdio bridge</source>
        <translation>%1 über stdio-Brücke</translation>
    </message>
    <message numerus="yes">
        <source>%n call(s)</source>
        <translation>
            <numerusform>%n Aufruf</numerusform>
            <numerusform>%n Aufrufe</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n running</source>
        <translation>
            <numerusform>, %n läuft</numerusform>
            <numerusform>, %n laufen</numerusform>
        </translation>
    </message>
    <message>
        <source>(unnamed client)</source>
        <translation>(unbenannter Client)</translation>
    </message>
    <message>
        <source>via stdio bridge</source>
        <translation>über stdio-Brücke</translation>
    </message>
    <message>
        <source>session %1</source>
        <translation>Sitzung %1</translation>
    </message>
    <message>
        <source>started %1</source>
        <translation>gestartet um %1</translation>
    </message>
    <message>
        <source>Calls of MCP clients appear here as they run.</source>
        <translation>Aufrufe von MCP-Clients erscheinen hier, während sie laufen.</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>Befunde (%1)</translation>
    </message>
    <message>
        <source>Call %1 · %2</source>
        <translation>Aufruf %1 · %2</translation>
    </message>
    <message>
        <source>waiting for your approval…</source>
        <translation>wartet auf Ihre Freigabe …</translation>
    </message>
    <message>
        <source>done in %1</source>
        <translation>fertig in %1</translation>
    </message>
    <message>
        <source>Plots (%1)</source>
        <translation>Plots (%1)</translation>
    </message>
    <message>
        <source>Protocol %1</source>
        <translation>Protokoll %1</translation>
    </message>
    <message>
        <source>MCP %1</source>
        <translation>MCP %1</translation>
    </message>
</context>
<context>
    <name>McpApprovalDialog</name>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>Befund</translation>
    </message>
    <message>
        <source>An MCP client</source>
        <translation>Ein MCP-Client</translation>
    </message>
    <message>
        <source>Allow %1 to run code?</source>
        <translation>%1 erlauben, Code auszuführen?</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; asks Sandbox Studio to run %2 code (tool &lt;tt&gt;%3&lt;/tt&gt;) in a sandbox.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; bittet Sandbox Studio, Code (%2, Werkzeug &lt;tt&gt;%3&lt;/tt&gt;) in einer Sandbox auszuführen.</translation>
    </message>
    <message>
        <source>some</source>
        <translation>unbekannte Sprache</translation>
    </message>
    <message>
        <source>Asked because: %1</source>
        <translation>Gefragt, weil: %1</translation>
    </message>
    <message>
        <source>Policy check: no findings.</source>
        <translation>Richtlinienprüfung: keine Befunde.</translation>
    </message>
    <message>
        <source>Policy findings (%1):</source>
        <translation>Befunde der Richtlinie (%1):</translation>
    </message>
    <message>
        <source>Optional: why you deny it (the client is told)</source>
        <translation>Optional: warum Sie ablehnen (der Client erfährt es)</translation>
    </message>
    <message>
        <source>&amp;Allow</source>
        <translation>&amp;Erlauben</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>no answer within the approval time</source>
        <translation>keine Antwort innerhalb der Freigabezeit</translation>
    </message>
    <message>
        <source>Waits until you answer or the client gives up.</source>
        <translation>Wartet, bis Sie antworten oder der Client aufgibt.</translation>
    </message>
    <message>
        <source>Denied automatically in %1:%2</source>
        <translation>Automatisch abgelehnt in %1:%2</translation>
    </message>
    <message>
        <source>the approval window was closed</source>
        <translation>das Freigabefenster wurde geschlossen</translation>
    </message>
</context>
<context>
    <name>McpPanel</name>
    <message>
        <source>Serve MCP over HTTP on this computer</source>
        <translation>MCP über HTTP auf diesem Computer anbieten</translation>
    </message>
    <message>
        <source>Lets local MCP clients (chat apps, agents) run code in sandboxes through the Streamable HTTP endpoint on 127.0.0.1. They must send the token below.</source>
        <translation>Lässt lokale MCP-Clients (Chat-Apps, Agenten) über den Streamable-HTTP-Endpunkt auf 127.0.0.1 Code in Sandboxen ausführen. Sie müssen das Token unten mitsenden.</translation>
    </message>
    <message>
        <source>any free port</source>
        <translation>beliebiger freier Port</translation>
    </message>
    <message>
        <source>TCP port on 127.0.0.1 (0: any free port, chosen at each start)</source>
        <translation>TCP-Port auf 127.0.0.1 (0: beliebiger freier Port, bei jedem Start neu gewählt)</translation>
    </message>
    <message>
        <source>MCP endpoint URL</source>
        <translation>URL des MCP-Endpunkts</translation>
    </message>
    <message>
        <source>not serving</source>
        <translation>nicht aktiv</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the URL</source>
        <translation>Die URL kopieren</translation>
    </message>
    <message>
        <source>MCP access token</source>
        <translation>MCP-Zugriffstoken</translation>
    </message>
    <message>
        <source>Clients send it as the header Authorization: Bearer TOKEN</source>
        <translation>Clients senden es im Header Authorization: Bearer TOKEN</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>Show or hide the token</source>
        <translation>Das Token anzeigen oder verbergen</translation>
    </message>
    <message>
        <source>Copy the token</source>
        <translation>Das Token kopieren</translation>
    </message>
    <message>
        <source>New Token</source>
        <translation>Neues Token</translation>
    </message>
    <message>
        <source>Replace the token: the old one stops working at once</source>
        <translation>Das Token ersetzen: Das alte funktioniert sofort nicht mehr</translation>
    </message>
    <message>
        <source>When to ask before an agent run</source>
        <translation>Wann vor einer Agenten-Ausführung gefragt wird</translation>
    </message>
    <message>
        <source>Never ask</source>
        <translation>Nie fragen</translation>
    </message>
    <message>
        <source>Ask before every run</source>
        <translation>Vor jeder Ausführung fragen</translation>
    </message>
    <message>
        <source>Ask for policy findings of at least</source>
        <translation>Bei Richtlinienbefunden fragen ab Schweregrad</translation>
    </message>
    <message>
        <source>Lowest finding severity that asks</source>
        <translation>Niedrigster Schweregrad eines Befunds, der eine Nachfrage auslöst</translation>
    </message>
    <message>
        <source>low</source>
        <translation>niedrig</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>mittel</translation>
    </message>
    <message>
        <source>high</source>
        <translation>hoch</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>kritisch</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>A run nobody allows or denies within this time is denied (never: it waits until the client gives up)</source>
        <translation>Eine Ausführung, die in dieser Zeit niemand erlaubt oder ablehnt, wird abgelehnt (nie: sie wartet, bis der Client aufgibt)</translation>
    </message>
    <message>
        <source>Connected MCP clients</source>
        <translation>Verbundene MCP-Clients</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>Transport</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Aufrufe</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>Seit</translation>
    </message>
    <message>
        <source>Configure Claude Desktop…</source>
        <translation>Claude Desktop einrichten …</translation>
    </message>
    <message>
        <source>Add Sandbox Studio to Claude Desktop&apos;s MCP servers (stdio)</source>
        <translation>Sandbox Studio zu den MCP-Servern von Claude Desktop hinzufügen (stdio)</translation>
    </message>
    <message>
        <source>Accept runs from Claude Desktop (stdio bridge)</source>
        <translation>Ausführungen von Claude Desktop annehmen (stdio-Brücke)</translation>
    </message>
    <message>
        <source>While this window is open, the server Claude Desktop starts (sandbox-studio mcp) hands its client to this window, so its runs show in the activity feed and the approval mode applies. Off: it serves on its own, unseen here.</source>
        <translation>Solange dieses Fenster offen ist, übergibt der Server, den Claude Desktop startet (sandbox-studio mcp), seinen Client an dieses Fenster; seine Ausführungen erscheinen dann im Aktivitätsverlauf, und der Freigabemodus gilt. Aus: Er arbeitet eigenständig und ist hier nicht zu sehen.</translation>
    </message>
    <message>
        <source>HTTP endpoint</source>
        <translation>HTTP-Endpunkt</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>Port:</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL:</translation>
    </message>
    <message>
        <source>Token:</source>
        <translation>Token:</translation>
    </message>
    <message>
        <source>Approval of agent runs</source>
        <translation>Freigabe von Agenten-Ausführungen</translation>
    </message>
    <message>
        <source>Deny unanswered after:</source>
        <translation>Unbeantwortete ablehnen nach:</translation>
    </message>
    <message>
        <source>Claude Desktop</source>
        <translation>Claude Desktop</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Verbergen</translation>
    </message>
    <message>
        <source>Token copied to the clipboard.</source>
        <translation>Token in die Zwischenablage kopiert.</translation>
    </message>
    <message>
        <source>New token in use: clients must be given it; the old one is refused.</source>
        <translation>Neues Token aktiv: Clients müssen es erhalten; das alte wird abgewiesen.</translation>
    </message>
    <message>
        <source>%1 refused a request: %2 %3</source>
        <translation>%1 hat eine Anfrage abgewiesen: %2 %3</translation>
    </message>
    <message>
        <source>Claude Desktop&apos;s runs are served on their own and do not show here.</source>
        <translation>Die Ausführungen von Claude Desktop laufen eigenständig und erscheinen hier nicht.</translation>
    </message>
    <message>
        <source>Claude Desktop&apos;s runs come to this window: they show in the activity feed and need approval as set below.</source>
        <translation>Die Ausführungen von Claude Desktop kommen in dieses Fenster: Sie erscheinen im Aktivitätsverlauf und brauchen eine Freigabe wie unten eingestellt.</translation>
    </message>
    <message>
        <source>Not accepting: %1</source>
        <translation>Keine Annahme: %1</translation>
    </message>
    <message>
        <source>Not serving: %1</source>
        <translation>Nicht aktiv: %1</translation>
    </message>
    <message>
        <source>Serving on 127.0.0.1 only. Clients need the URL and the token.</source>
        <translation>Aktiv nur auf 127.0.0.1. Clients brauchen die URL und das Token.</translation>
    </message>
    <message>
        <source>Off. Claude Desktop does not need it: it starts sandbox-studio mcp over stdio (see below).</source>
        <translation>Aus. Claude Desktop braucht das nicht: Es startet sandbox-studio mcp über stdio (siehe unten).</translation>
    </message>
    <message>
        <source>via stdio bridge</source>
        <translation>über stdio-Brücke</translation>
    </message>
    <message>
        <source>(initializing)</source>
        <translation>(wird initialisiert)</translation>
    </message>
    <message>
        <source>Protocol %1</source>
        <translation>Protokoll %1</translation>
    </message>
    <message>
        <source>Connected clients: %1</source>
        <translation>Verbundene Clients: %1</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>(unbenannt)</translation>
    </message>
    <message>
        <source>Protocol %1, stateless: no MCP session</source>
        <translation>Protokoll %1, zustandslos: keine MCP-Sitzung</translation>
    </message>
</context>
<context>
    <name>McpPreferencesPage</name>
    <message>
        <source>Offer an MCP endpoint to language-model clients</source>
        <translation>Sprachmodell-Clients einen MCP-Endpunkt anbieten</translation>
    </message>
    <message>
        <source>MCP port</source>
        <translation>MCP-Port</translation>
    </message>
    <message>
        <source>&amp;Port on 127.0.0.1:</source>
        <translation>&amp;Port auf 127.0.0.1:</translation>
    </message>
    <message>
        <source>The endpoint listens on the loopback interface only. Stored for the MCP server.</source>
        <translation>Der Endpunkt lauscht nur auf der Loopback-Schnittstelle. Wird für den MCP-Server gespeichert.</translation>
    </message>
    <message>
        <source>MCP</source>
        <translation>MCP</translation>
    </message>
</context>
<context>
    <name>NotebookCell</name>
    <message>
        <source>Run this cell (Ctrl+Return)</source>
        <translation>Diese Zelle ausführen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Run cell</source>
        <translation>Zelle ausführen</translation>
    </message>
    <message>
        <source>Cell actions</source>
        <translation>Zellaktionen</translation>
    </message>
    <message>
        <source>Cell code</source>
        <translation>Zellcode</translation>
    </message>
    <message>
        <source>Run as number %1 in this kernel</source>
        <translation>Als Nummer %1 in diesem Kernel ausgeführt</translation>
    </message>
    <message>
        <source>Not run yet</source>
        <translation>Noch nicht ausgeführt</translation>
    </message>
    <message>
        <source>Waiting for the cells before it</source>
        <translation>Wartet auf die vorherigen Zellen</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>[%1 output, not shown here]</source>
        <translation>[%1-Ausgabe, hier nicht angezeigt]</translation>
    </message>
    <message>
        <source>&amp;Run Cell</source>
        <translation>Zelle &amp;ausführen</translation>
    </message>
    <message>
        <source>Run and Go to &amp;Next</source>
        <translation>Ausführen und zur &amp;nächsten</translation>
    </message>
    <message>
        <source>Insert Cell &amp;Above</source>
        <translation>Zelle dar&amp;über einfügen</translation>
    </message>
    <message>
        <source>Insert Cell &amp;Below</source>
        <translation>Zelle dar&amp;unter einfügen</translation>
    </message>
    <message>
        <source>Move &amp;Up</source>
        <translation>Nach &amp;oben</translation>
    </message>
    <message>
        <source>Move D&amp;own</source>
        <translation>Nach u&amp;nten</translation>
    </message>
    <message>
        <source>&amp;Clear Output</source>
        <translation>Ausgabe &amp;leeren</translation>
    </message>
    <message>
        <source>&amp;Delete Cell</source>
        <translation>Zelle &amp;löschen</translation>
    </message>
</context>
<context>
    <name>NotebookConsole</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Kernel status</source>
        <translation>Kernel-Status</translation>
    </message>
    <message>
        <source>Add Cell</source>
        <translation>Zelle hinzufügen</translation>
    </message>
    <message>
        <source>Add a cell at the end</source>
        <translation>Eine Zelle am Ende hinzufügen</translation>
    </message>
    <message>
        <source>The container engine changed; a new kernel starts on the next run.</source>
        <translation>Die Container-Engine hat sich geändert; bei der nächsten Ausführung startet ein neuer Kernel.</translation>
    </message>
    <message>
        <source>&amp;Add Cell</source>
        <translation>Zelle &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Insert a cell below the current one</source>
        <translation>Eine Zelle unter der aktuellen einfügen</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>Aus&amp;führen</translation>
    </message>
    <message>
        <source>Run the current cell and go to the next</source>
        <translation>Die aktuelle Zelle ausführen und zur nächsten gehen</translation>
    </message>
    <message>
        <source>Run A&amp;ll</source>
        <translation>&amp;Alle ausführen</translation>
    </message>
    <message>
        <source>Run all cells from the top</source>
        <translation>Alle Zellen von oben an ausführen</translation>
    </message>
    <message>
        <source>&amp;Interrupt</source>
        <translation>&amp;Unterbrechen</translation>
    </message>
    <message>
        <source>Interrupt the running cell; variables stay</source>
        <translation>Die laufende Zelle unterbrechen; Variablen bleiben erhalten</translation>
    </message>
    <message>
        <source>Re&amp;start</source>
        <translation>Neu &amp;starten</translation>
    </message>
    <message>
        <source>Restart the kernel: all variables are lost</source>
        <translation>Den Kernel neu starten: Alle Variablen gehen verloren</translation>
    </message>
    <message>
        <source>&amp;Clear Outputs</source>
        <translation>Ausgaben &amp;leeren</translation>
    </message>
    <message>
        <source>Clear the outputs of all cells</source>
        <translation>Die Ausgaben aller Zellen leeren</translation>
    </message>
    <message>
        <source>&amp;Export .ipynb…</source>
        <translation>.ipynb &amp;exportieren …</translation>
    </message>
    <message>
        <source>Save the notebook as a Jupyter notebook</source>
        <translation>Das Notizbuch als Jupyter-Notebook speichern</translation>
    </message>
    <message>
        <source>Notebook</source>
        <translation>Notizbuch</translation>
    </message>
    <message>
        <source>The %1 kernel was closed; a %2 kernel starts on the next run.</source>
        <translation>Der %1-Kernel wurde geschlossen; bei der nächsten Ausführung startet ein %2-Kernel.</translation>
    </message>
    <message>
        <source>%1 · no kernel yet — it starts on the first run</source>
        <translation>%1 · noch kein Kernel — er startet bei der ersten Ausführung</translation>
    </message>
    <message>
        <source>Starting %1 kernel…</source>
        <translation>%1-Kernel wird gestartet …</translation>
    </message>
    <message>
        <source>%1 · idle</source>
        <translation>%1 · bereit</translation>
    </message>
    <message>
        <source>%1 · idle · %2</source>
        <translation>%1 · bereit · %2</translation>
    </message>
    <message>
        <source>%1 · busy</source>
        <translation>%1 · beschäftigt</translation>
    </message>
    <message>
        <source>%1 · interrupting…</source>
        <translation>%1 · wird unterbrochen …</translation>
    </message>
    <message>
        <source>%1 · restarting…</source>
        <translation>%1 · startet neu …</translation>
    </message>
    <message>
        <source>%1
Kernel sandbox %2</source>
        <translation>%1
Kernel-Sandbox %2</translation>
    </message>
    <message>
        <source>%1 code — Shift+Return runs it and moves on, Ctrl+Return runs it in place</source>
        <translation>%1-Code — Umschalt+Eingabe führt ihn aus und geht weiter, Strg+Eingabe führt ihn an Ort und Stelle aus</translation>
    </message>
    <message>
        <source>No container engine is available: start Docker and press Retry.</source>
        <translation>Keine Container-Engine verfügbar: Starten Sie Docker und wählen Sie „Erneut versuchen“.</translation>
    </message>
    <message>
        <source>The kernel start was cancelled.</source>
        <translation>Der Kernel-Start wurde abgebrochen.</translation>
    </message>
    <message>
        <source>Could not start the %1 kernel: %2</source>
        <translation>Der %1-Kernel konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Kernel start cancelled — it starts again on the next run</source>
        <translation>Kernel-Start abgebrochen — er startet bei der nächsten Ausführung erneut</translation>
    </message>
    <message>
        <source>The %1 kernel could not start</source>
        <translation>Der %1-Kernel konnte nicht starten</translation>
    </message>
    <message>
        <source>The cell could not run: %1</source>
        <translation>Die Zelle konnte nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>The kernel was lost (%1) — a new one starts on the next run</source>
        <translation>Der Kernel ging verloren (%1) — bei der nächsten Ausführung startet ein neuer</translation>
    </message>
    <message>
        <source>stopped at the %1 time limit (Limits ▸ Time)</source>
        <translation>an der Zeitgrenze von %1 gestoppt (Grenzen ▸ Zeit)</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>kernel restarted — variables were lost</source>
        <translation>Kernel neu gestartet — Variablen gingen verloren</translation>
    </message>
    <message>
        <source>the kernel was restarted</source>
        <translation>der Kernel wurde neu gestartet</translation>
    </message>
    <message>
        <source>Restart Kernel</source>
        <translation>Kernel neu starten</translation>
    </message>
    <message>
        <source>Restart the %1 kernel? All variables and imports are lost.</source>
        <translation>Den %1-Kernel neu starten? Alle Variablen und Imports gehen verloren.</translation>
    </message>
    <message>
        <source>The kernel could not be restarted: %1</source>
        <translation>Der Kernel konnte nicht neu gestartet werden: %1</translation>
    </message>
    <message>
        <source>restarted</source>
        <translation>neu gestartet</translation>
    </message>
    <message>
        <source>%1 · kernel shut down — a new one starts on the next run</source>
        <translation>%1 · Kernel beendet — bei der nächsten Ausführung startet ein neuer</translation>
    </message>
    <message>
        <source>stopped — the kernel was closed</source>
        <translation>gestoppt — der Kernel wurde geschlossen</translation>
    </message>
    <message>
        <source>Export Notebook</source>
        <translation>Notizbuch exportieren</translation>
    </message>
    <message>
        <source>Jupyter notebook (*.ipynb)</source>
        <translation>Jupyter-Notebook (*.ipynb)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Notebook cells</source>
        <translation>Notizbuchzellen</translation>
    </message>
    <message>
        <source>The kernel was closed; the next run starts one on the language&apos;s image.</source>
        <translation>Der Kernel wurde geschlossen; die nächste Ausführung startet einen auf dem Image der Sprache.</translation>
    </message>
    <message>
        <source>The kernel was closed; the next run starts one on %1.</source>
        <translation>Der Kernel wurde geschlossen; die nächste Ausführung startet einen auf %1.</translation>
    </message>
    <message>
        <source>line %1: %2 (%3)</source>
        <translation>Zeile %1: %2 (%3)</translation>
    </message>
    <message>
        <source>Run This Cell?</source>
        <translation>Diese Zelle ausführen?</translation>
    </message>
    <message>
        <source>The security policy asks before running this cell:

%1

Run it in the sandbox anyway?</source>
        <translation>Die Sicherheitsrichtlinie fragt nach, bevor diese Zelle ausgeführt wird:

%1

Trotzdem in der Sandbox ausführen?</translation>
    </message>
    <message>
        <source>line %1: %2 (%3, %4)</source>
        <translation>Zeile %1: %2 (%3, %4)</translation>
    </message>
    <message>
        <source>Security policy: %1</source>
        <translation>Sicherheitsrichtlinie: %1</translation>
    </message>
</context>
<context>
    <name>OutputConsole</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>Output appears here. Press Ctrl+Return to run the code.</source>
        <translation>Die Ausgabe erscheint hier. Drücken Sie Strg+Eingabe, um den Code auszuführen.</translation>
    </message>
    <message>
        <source>Output console</source>
        <translation>Ausgabekonsole</translation>
    </message>
    <message>
        <source>&amp;View Full Size</source>
        <translation>In voller &amp;Größe anzeigen</translation>
    </message>
    <message>
        <source>&amp;Save Image As…</source>
        <translation>Bild &amp;speichern unter …</translation>
    </message>
    <message>
        <source>Copy &amp;Image</source>
        <translation>Bild &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Open %1</source>
        <translation>%1 ö&amp;ffnen</translation>
    </message>
    <message>
        <source>&amp;Save %1 As…</source>
        <translation>%1 &amp;speichern unter …</translation>
    </message>
    <message>
        <source>C&amp;lear Output</source>
        <translation>Ausgabe &amp;leeren</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>compiled in %1</source>
        <translation>kompiliert in %1</translation>
    </message>
    <message>
        <source>compilation failed (exit %1) after %2</source>
        <translation>Kompilierung fehlgeschlagen (Status %1) nach %2</translation>
    </message>
    <message>
        <source>line %1: </source>
        <translation>Zeile %1: </translation>
    </message>
    <message>
        <source>policy %1 (%2, %3): %4%5</source>
        <translation>Richtlinie %1 (%2, %3): %4%5</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>Status %1</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeit überschritten</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>Speicher erschöpft</translation>
    </message>
    <message>
        <source>output truncated</source>
        <translation>Ausgabe gekürzt</translation>
    </message>
    <message>
        <source>artifacts truncated</source>
        <translation>Artefakte gekürzt</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>gestoppt</translation>
    </message>
    <message>
        <source>Artifact limit reached: not every file the program wrote was brought back (Limits: number and total size).</source>
        <translation>Artefaktgrenze erreicht: Nicht jede Datei, die das Programm geschrieben hat, wurde zurückgeholt (Grenzen: Anzahl und Gesamtgröße).</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>abgelehnt: %1</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Click to view full size; right-click to save or copy</source>
        <translation>Klicken für volle Größe; Rechtsklick zum Speichern oder Kopieren</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>Speichern unter …</translation>
    </message>
    <message>
        <source>[earlier output removed to keep the console responsive]</source>
        <translation>[frühere Ausgabe entfernt, damit die Konsole flüssig bleibt]</translation>
    </message>
    <message>
        <source>not run: %1</source>
        <translation>nicht ausgeführt: %1</translation>
    </message>
    <message>
        <source>memory %1 MiB</source>
        <translation>Speicher %1 MiB</translation>
    </message>
    <message>
        <source>%1 CPU</source>
        <translation>%1 CPU</translation>
    </message>
    <message>
        <source>%1 processes</source>
        <translation>%1 Prozesse</translation>
    </message>
    <message>
        <source>time %1 s</source>
        <translation>Zeit %1 s</translation>
    </message>
    <message>
        <source>output %1 KiB</source>
        <translation>Ausgabe %1 KiB</translation>
    </message>
    <message>
        <source>work dir %1 MiB</source>
        <translation>Arbeitsverzeichnis %1 MiB</translation>
    </message>
    <message>
        <source>artifacts %1 / %2 MiB</source>
        <translation>Artefakte %1 / %2 MiB</translation>
    </message>
    <message>
        <source>network off</source>
        <translation>Netzwerk aus</translation>
    </message>
    <message>
        <source>network on</source>
        <translation>Netzwerk an</translation>
    </message>
    <message>
        <source>limits: %1%2</source>
        <translation>Grenzen: %1%2</translation>
    </message>
    <message>
        <source> (▲ reached: %1)</source>
        <translation> (▲ erreicht: %1)</translation>
    </message>
</context>
<context>
    <name>OutputError</name>
    <message>
        <source>Traceback</source>
        <translation>Traceback</translation>
    </message>
    <message>
        <source>Hide the traceback</source>
        <translation>Den Traceback ausblenden</translation>
    </message>
    <message>
        <source>Show the traceback</source>
        <translation>Den Traceback anzeigen</translation>
    </message>
</context>
<context>
    <name>OutputImage</name>
    <message>
        <source>Image output</source>
        <translation>Bildausgabe</translation>
    </message>
    <message>
        <source>[%1 image that could not be decoded, %2]</source>
        <translation>[%1-Bild, das nicht dekodiert werden konnte, %2]</translation>
    </message>
    <message>
        <source>%1 × %2 image — click to view full size, right-click to save or copy</source>
        <translation>Bild %1 × %2 — klicken für volle Größe, Rechtsklick zum Speichern oder Kopieren</translation>
    </message>
    <message>
        <source>&amp;View Full Size</source>
        <translation>In voller &amp;Größe anzeigen</translation>
    </message>
    <message>
        <source>&amp;Save Image As…</source>
        <translation>Bild &amp;speichern unter …</translation>
    </message>
    <message>
        <source>&amp;Copy Image</source>
        <translation>Bild &amp;kopieren</translation>
    </message>
</context>
<context>
    <name>OutputText</name>
    <message>
        <source>Error output</source>
        <translation>Fehlerausgabe</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Traceback</source>
        <translation>Traceback</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>[earlier output removed]</source>
        <translation>[frühere Ausgabe entfernt]</translation>
    </message>
    <message>
        <source>Show all %1 lines</source>
        <translation>Alle %1 Zeilen anzeigen</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>Einklappen</translation>
    </message>
</context>
<context>
    <name>PolicyDialog</name>
    <message>
        <source>&amp;Edit…</source>
        <translation>&amp;Bearbeiten …</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Security Policy</source>
        <translation>Sicherheitsrichtlinie</translation>
    </message>
    <message>
        <source>The preset&apos;s rules and severity mapping; rules you add or change are kept when you switch.</source>
        <translation>Die Regeln und die Zuordnung der Schweregrade der Vorgabe; Regeln, die Sie hinzufügen oder ändern, bleiben beim Wechsel erhalten.</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>&amp;Vorgabe:</translation>
    </message>
    <message>
        <source>Severity → action:</source>
        <translation>Schweregrad → Aktion:</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>Sprachen</translation>
    </message>
    <message>
        <source>Matches</source>
        <translation>Prüft</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>&amp;Hinzufügen …</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Importieren …</translation>
    </message>
    <message>
        <source>Load a policy file (JSON, docs/policy.md)</source>
        <translation>Eine Richtliniendatei laden (JSON, docs/policy.md)</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren …</translation>
    </message>
    <message>
        <source>Save this policy as a file</source>
        <translation>Diese Richtlinie als Datei speichern</translation>
    </message>
    <message>
        <source>imports %1</source>
        <translation>importiert %1</translation>
    </message>
    <message>
        <source>strings: %1</source>
        <translation>Zeichenketten: %1</translation>
    </message>
    <message>
        <source>code: %1</source>
        <translation>Code: %1</translation>
    </message>
    <message>
        <source> (by severity)</source>
        <translation> (nach Schweregrad)</translation>
    </message>
    <message>
        <source> (yours)</source>
        <translation> (Ihre)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>%1 rules, %2 of them yours; removed preset rules: %3. Saved to %4.</source>
        <translation>%1 Regeln, davon %2 von Ihnen; entfernte Regeln der Vorgabe: %3. Gespeichert in %4.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>all languages</source>
        <translation>alle Sprachen</translation>
    </message>
    <message>
        <source>Imports these modules</source>
        <translation>Importiert diese Module</translation>
    </message>
    <message>
        <source>Pattern in code (not comments or strings)</source>
        <translation>Muster im Code (nicht in Kommentaren oder Zeichenketten)</translation>
    </message>
    <message>
        <source>Pattern in string literals</source>
        <translation>Muster in Zeichenkettenliteralen</translation>
    </message>
    <message>
        <source>module names, or a regular expression</source>
        <translation>Modulnamen oder ein regulärer Ausdruck</translation>
    </message>
    <message>
        <source>by severity</source>
        <translation>nach Schweregrad</translation>
    </message>
    <message>
        <source>&amp;Id:</source>
        <translation>&amp;ID:</translation>
    </message>
    <message>
        <source>&amp;Languages:</source>
        <translation>&amp;Sprachen:</translation>
    </message>
    <message>
        <source>&amp;Matches:</source>
        <translation>&amp;Prüft:</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>&amp;Wert:</translation>
    </message>
    <message>
        <source>&amp;Severity:</source>
        <translation>Sc&amp;hweregrad:</translation>
    </message>
    <message>
        <source>&amp;Action:</source>
        <translation>&amp;Aktion:</translation>
    </message>
    <message>
        <source>M&amp;essage:</source>
        <translation>&amp;Meldung:</translation>
    </message>
    <message>
        <source>Add Rule</source>
        <translation>Regel hinzufügen</translation>
    </message>
    <message>
        <source>Edit Rule</source>
        <translation>Regel bearbeiten</translation>
    </message>
    <message>
        <source>Import Policy</source>
        <translation>Richtlinie importieren</translation>
    </message>
    <message>
        <source>Policy files (*.json)</source>
        <translation>Richtliniendateien (*.json)</translation>
    </message>
    <message>
        <source>Export Policy</source>
        <translation>Richtlinie exportieren</translation>
    </message>
</context>
<context>
    <name>PolicyPreferencesPage</name>
    <message>
        <source>Policy preset</source>
        <translation>Richtlinienvorgabe</translation>
    </message>
    <message>
        <source>Strict: no network, small limits</source>
        <translation>Streng: kein Netzwerk, kleine Grenzen</translation>
    </message>
    <message>
        <source>Standard: no network, the default limits</source>
        <translation>Standard: kein Netzwerk, die Standardgrenzen</translation>
    </message>
    <message>
        <source>Open: network allowed</source>
        <translation>Offen: Netzwerk erlaubt</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>&amp;Vorgabe:</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>The preset is stored for the run policy; the limits in the Limits panel still apply to each run.</source>
        <translation>Die Vorgabe wird für die Ausführungsrichtlinie gespeichert; die Grenzen im Bereich „Grenzen“ gelten weiterhin für jede Ausführung.</translation>
    </message>
</context>
<context>
    <name>PoolPanel</name>
    <message>
        <source>none</source>
        <translation>keins</translation>
    </message>
    <message>
        <source>host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>bridge</source>
        <translation>Bridge</translation>
    </message>
    <message>
        <source>Sandbox pool</source>
        <translation>Sandbox-Pool</translation>
    </message>
    <message>
        <source>Keep warm sandboxes ready</source>
        <translation>Vorgewärmte Sandboxen bereithalten</translation>
    </message>
    <message>
        <source>Runs without library installs borrow a ready sandbox instead of creating a fresh one.</source>
        <translation>Ausführungen ohne Bibliotheksinstallation leihen sich eine bereite Sandbox, statt eine neue anzulegen.</translation>
    </message>
    <message>
        <source>Warm %1 sandboxes</source>
        <translation>Vorgewärmte %1-Sandboxen</translation>
    </message>
    <message>
        <source>Sandboxes kept ready for %1 with the current limits and network</source>
        <translation>Für %1 mit den aktuellen Grenzen und dem aktuellen Netzwerk bereitgehaltene Sandboxen</translation>
    </message>
    <message>
        <source>Warm %1:</source>
        <translation>Vorgewärmt %1:</translation>
    </message>
    <message>
        <source>Maximum sandboxes per key</source>
        <translation>Höchstzahl der Sandboxen je Schlüssel</translation>
    </message>
    <message>
        <source>At most this many sandboxes (warm, busy or being made) per language, limits and network</source>
        <translation>Höchstens so viele Sandboxen (vorgewärmt, beschäftigt oder im Entstehen) je Sprache, Grenzen und Netzwerk</translation>
    </message>
    <message>
        <source>Maximum per key:</source>
        <translation>Höchstens je Schlüssel:</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>Grenzen</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Warm</source>
        <translation>Vorgewärmt</translation>
    </message>
    <message>
        <source>Busy</source>
        <translation>Beschäftigt</translation>
    </message>
    <message>
        <source>Creating</source>
        <translation>Im Entstehen</translation>
    </message>
    <message>
        <source>Unhealthy</source>
        <translation>Fehlerhaft</translation>
    </message>
    <message>
        <source>Key %1, image %2</source>
        <translation>Schlüssel %1, Image %2</translation>
    </message>
    <message>
        <source>Pool starting…</source>
        <translation>Pool startet …</translation>
    </message>
    <message>
        <source>Pool off</source>
        <translation>Pool aus</translation>
    </message>
    <message>
        <source>Total: %1 warm, %2 busy, %3 creating, %4 unhealthy</source>
        <translation>Gesamt: %1 vorgewärmt, %2 beschäftigt, %3 im Entstehen, %4 fehlerhaft</translation>
    </message>
    <message>
        <source>Pooled sandboxes</source>
        <translation>Sandboxen im Pool</translation>
    </message>
    <message>
        <source>Preloaded interpreters</source>
        <translation>Vorgeladene Interpreter</translation>
    </message>
    <message>
        <source>Warm Python sandboxes keep an interpreter with numpy, pandas and matplotlib already imported; each run starts as a fresh copy of it (milliseconds instead of about a second).</source>
        <translation>Vorgewärmte Python-Sandboxen halten einen Interpreter bereit, der numpy, pandas und matplotlib schon importiert hat; jede Ausführung startet als frische Kopie davon (Millisekunden statt etwa einer Sekunde).</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Preference pages</source>
        <translation>Einstellungsseiten</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Built %1</source>
        <translation>%1 gebaut</translation>
    </message>
    <message>
        <source>Imported %1</source>
        <translation>%1 importiert</translation>
    </message>
    <message>
        <source>Pulled %1</source>
        <translation>%1 heruntergeladen</translation>
    </message>
    <message>
        <source>Removed %1</source>
        <translation>%1 entfernt</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>Uploaded %n item(s)</source>
        <translation>
            <numerusform>%n Element hochgeladen</numerusform>
            <numerusform>%n Elemente hochgeladen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Uploaded %n item(s) into %1</source>
        <translation>
            <numerusform>%n Element in %1 hochgeladen</numerusform>
            <numerusform>%n Elemente in %1 hochgeladen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Downloaded %n file(s) to %1</source>
        <translation>
            <numerusform>%n Datei nach %1 heruntergeladen</numerusform>
            <numerusform>%n Dateien nach %1 heruntergeladen</numerusform>
        </translation>
    </message>
    <message>
        <source>; refused: %1</source>
        <translation>; abgewiesen: %1</translation>
    </message>
</context>
<context>
    <name>SandboxPreferencesPage</name>
    <message>
        <source>Keep warm sandboxes ready (pool)</source>
        <translation>Vorgewärmte Sandboxen bereithalten (Pool)</translation>
    </message>
    <message>
        <source> cores</source>
        <translation> Kerne</translation>
    </message>
    <message>
        <source>CPU limit</source>
        <translation>CPU-Grenze</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>Speichergrenze</translation>
    </message>
    <message>
        <source>Process limit</source>
        <translation>Prozessgrenze</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Zeitgrenze</translation>
    </message>
    <message>
        <source> KiB</source>
        <translation> KiB</translation>
    </message>
    <message>
        <source>Output limit</source>
        <translation>Ausgabegrenze</translation>
    </message>
    <message>
        <source>Warm sandboxes per kind at most</source>
        <translation>Höchstens vorgewärmte Sandboxen je Art</translation>
    </message>
    <message>
        <source>&amp;CPU:</source>
        <translation>&amp;CPU:</translation>
    </message>
    <message>
        <source>&amp;Memory:</source>
        <translation>Spe&amp;icher:</translation>
    </message>
    <message>
        <source>&amp;Processes:</source>
        <translation>&amp;Prozesse:</translation>
    </message>
    <message>
        <source>&amp;Time:</source>
        <translation>&amp;Zeit:</translation>
    </message>
    <message>
        <source>&amp;Output:</source>
        <translation>A&amp;usgabe:</translation>
    </message>
    <message>
        <source>Pool si&amp;ze per kind:</source>
        <translation>Pool&amp;größe je Art:</translation>
    </message>
    <message>
        <source>The same settings as the Limits and Sandbox Pool panels.</source>
        <translation>Dieselben Einstellungen wie in den Bereichen „Grenzen“ und „Sandbox-Pool“.</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
</context>
<context>
    <name>SessionFilesPanel</name>
    <message>
        <source>Upload…</source>
        <translation>Hochladen …</translation>
    </message>
    <message>
        <source>Copy files from this computer into the session&apos;s work directory (or drop them on the list)</source>
        <translation>Dateien von diesem Computer in das Arbeitsverzeichnis der Sitzung kopieren (oder auf der Liste ablegen)</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>Herunterladen …</translation>
    </message>
    <message>
        <source>Copy the selected files and folders to this computer</source>
        <translation>Die ausgewählten Dateien und Ordner auf diesen Computer kopieren</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>List the work directory again</source>
        <translation>Das Arbeitsverzeichnis neu auflisten</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>Files of the session</source>
        <translation>Dateien der Sitzung</translation>
    </message>
    <message>
        <source>No notebook session: run a cell in the notebook (Ctrl+Shift+N) to start one, then its files show here.</source>
        <translation>Keine Notizbuch-Sitzung: Führen Sie eine Zelle im Notizbuch aus (Strg+Umschalt+N), um eine zu starten; dann erscheinen ihre Dateien hier.</translation>
    </message>
    <message>
        <source>Busy: try again when the current transfer is done.</source>
        <translation>Beschäftigt: Versuchen Sie es erneut, wenn die laufende Übertragung fertig ist.</translation>
    </message>
    <message numerus="yes">
        <source>Uploading %n item(s)…</source>
        <translation>
            <numerusform>%n Element wird hochgeladen …</numerusform>
            <numerusform>%n Elemente werden hochgeladen …</numerusform>
        </translation>
    </message>
    <message>
        <source>Select files or folders to download.</source>
        <translation>Wählen Sie Dateien oder Ordner zum Herunterladen aus.</translation>
    </message>
    <message numerus="yes">
        <source>Downloading %n item(s)…</source>
        <translation>
            <numerusform>%n Element wird heruntergeladen …</numerusform>
            <numerusform>%n Elemente werden heruntergeladen …</numerusform>
        </translation>
    </message>
    <message>
        <source>Upload files to the session</source>
        <translation>Dateien in die Sitzung hochladen</translation>
    </message>
    <message>
        <source>Download into folder</source>
        <translation>In Ordner herunterladen</translation>
    </message>
    <message numerus="yes">
        <source>%n entries in the work directory</source>
        <translation>
            <numerusform>%n Eintrag im Arbeitsverzeichnis</numerusform>
            <numerusform>%n Einträge im Arbeitsverzeichnis</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not list the session&apos;s files: %1</source>
        <translation>Die Dateien der Sitzung konnten nicht aufgelistet werden: %1</translation>
    </message>
</context>
<context>
    <name>StudioSettings</name>
    <message>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
</context>
</TS>
