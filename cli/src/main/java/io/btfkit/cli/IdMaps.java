package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.dedup.DedupResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --map FILE}: one line per input type — input file, input id, output id — tab-separated,
 * so ids recorded elsewhere (e.g. .BTF_ids) can be translated and a merge can be audited.
 */
final class IdMaps {
    private IdMaps() {
    }

    /** The map's bytes, streamed when the map is written. */
    static Outputs.Body body(List<Path> files, List<Btf> inputs, DedupResult r) {
        return os -> {
            StringBuilder sb = new StringBuilder(1 << 16);
            for (int k = 0; k < inputs.size(); k++) {
                Btf in = inputs.get(k);
                String name = files.get(k).toString();
                for (int id = in.firstId(); id < in.typeCount(); id++) {
                    sb.append(name).append('\t').append(id).append('\t').append(r.outputId(k, id, in.firstId())).append('\n');
                    if (sb.length() > (1 << 15)) {
                        os.write(sb.toString().getBytes(StandardCharsets.UTF_8));
                        sb.setLength(0);
                    }
                }
            }
            os.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        };
    }
}
