package io.btfkit.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.dedup.DedupResult;
import io.btfkit.dedup.Deduplicator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/API.md, kept compiling and working. */
class ApiExampleTest {
    @TempDir
    Path tmp;

    @Test
    void readLinkAndWrite() throws Exception {
        Path dir = TestData.sample("gcc");
        Path out = tmp.resolve("prog.btf");
        // --- docs/API.md ---
        List<Btf> objects = new ArrayList<>();
        for (String name : List.of("main.o", "job.o", "queue.o", "worker.o")) {
            objects.add(InputLoader.load(dir.resolve(name), null).btf());      // raw, ELF, compressed or text
        }
        DedupResult linked = Deduplicator.link(objects, null, Deduplicator.Options.LINK);
        Files.write(out, BtfWriter.write(linked.btf()));
        int whereIsType5OfJobO = linked.outputId(1, 5, 1);                     // input 1 (job.o), its type [5]
        // --- end ---
        assertTrue(Files.size(out) > 0);
        assertTrue(whereIsType5OfJobO > 0 && whereIsType5OfJobO < linked.btf().typeCount());
        assertTrue(linked.btf().ownTypeCount() < objects.stream().mapToInt(Btf::ownTypeCount).sum());
    }
}
