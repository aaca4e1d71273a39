package io.btfkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** {@code btfkit --version}: the version Maven stamped into the jar. */
final class Version implements CommandLine.IVersionProvider {
    static String get() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("/btfkit-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"btfkit " + get(), "Java " + System.getProperty("java.version")};
    }
}
