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
    <name>CodeEditor</name>
    <message>
        <source>Code editor</source>
        <translation>Code-Editor</translation>
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
        <source>Local Docker</source>
        <translation>Lokales Docker</translation>
    </message>
    <message>
        <source>Local Podman</source>
        <translation>Lokales Podman</translation>
    </message>
    <message>
        <source>Remote Docker (TLS)</source>
        <translation>Entferntes Docker (TLS)</translation>
    </message>
    <message>
        <source>Kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>%1 (not available yet)</source>
        <translation>%1 (noch nicht verfügbar)</translation>
    </message>
    <message>
        <source>%1 is not available yet.</source>
        <translation>%1 ist noch nicht verfügbar.</translation>
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
        <source>%1 is not reachable at %2 — start it (sudo dockerd, or sudo systemctl start docker) and press Retry.</source>
        <translation>%1 ist unter %2 nicht erreichbar — starten Sie es (sudo dockerd oder sudo systemctl start docker) und wählen Sie „Erneut versuchen“.</translation>
    </message>
    <message>
        <source>The TLS connection to %1 failed — check the CA, client certificate and key, then press Retry.</source>
        <translation>Die TLS-Verbindung zu %1 ist fehlgeschlagen — prüfen Sie CA, Client-Zertifikat und Schlüssel und wählen Sie dann „Erneut versuchen“.</translation>
    </message>
    <message>
        <source>%1 at %2 reported a problem: %3</source>
        <translation>%1 unter %2 meldet ein Problem: %3</translation>
    </message>
    <message>
        <source>%1 not available</source>
        <translation>%1 nicht verfügbar</translation>
    </message>
    <message>
        <source>%1 not reachable · %2</source>
        <translation>%1 nicht erreichbar · %2</translation>
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
    <message numerus="yes">
        <source>Retrying automatically in %n s.</source>
        <translation>
            <numerusform>Neuer Versuch automatisch in %n s.</numerusform>
            <numerusform>Neuer Versuch automatisch in %n s.</numerusform>
        </translation>
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
    <name>StudioSettings</name>
    <message>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
</context>
</TS>
