package io.btfkit.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import io.btfkit.core.TestData;
import io.btfkit.core.io.InputLoader;
import io.btfkit.minimize.ReloKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * libbpf as the oracle of the bounded CO-RE searches of issue 23 (see {@link CoreOracleTest} for
 * the harness): the member search through anonymous members, memoised in btfkit, on random
 * nested targets; and the depth limits of the type relations, which btfkit now applies to pairs
 * compared once: prototypes nested 32/33 deep, pointer chains of 31/32, for type_exists and
 * type_matches. (The exponential shapes themselves are not run through libbpf: 4 anonymous
 * members 16 levels deep, or 16 levels of 4-parameter prototypes, keep libbpf 1.1 busy past a
 * minute; btfkit's CoreHostileTest resolves them at once.)
 */
class CoreHostileOracleTest {

    static IntStream seeds() {
        return IntStream.rangeClosed(1, 40);
    }

    /** Random anonymous structs and unions, shared, below the task_struct and sk_buff core_reads reads. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void nestedAnonymousMembersResolveAsInLibbpf(int seed, @TempDir Path tmp) throws IOException {
        Path target = tmp.resolve("target.btf");
        Files.write(target, BtfWriter.write(nestedTarget(new Random(seed))));
        assertSameAsLibbpf(TestData.sample("bpf/core_reads.bpf.o"), target, "seed " + seed);
    }

    /**
     * core_reads' fields in a random DAG of anonymous members: {@code pid} as int or as a struct
     * (incompatible: libbpf gives up on the struct holding it, leaving a stale raw index), {@code
     * comm}, {@code se}, {@code __state}, {@code next}, {@code prev}, {@code len}, decoys.
     */
    static Btf nestedTarget(Random rnd) {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        int u = b.addInt("unsigned int", 4, 0);
        int c = b.addInt("char", 1, Kind.INT_CHAR);
        int u64 = b.addInt("long long unsigned int", 8, 0);
        int comm = b.addArray(c, i, 16);
        int se = b.addStruct("sched_entity", 8);
        b.addMember("vruntime", u64, 0, 0);
        int bad = b.addStruct("pid", 4);
        b.addMember("x", i, 0, 0);
        int skb = b.addFwd("sk_buff", false);
        int skbPtr = b.addPtr(skb);
        String[] names = {"pid", "comm", "se", "__state", "next", "prev", "len", "x"};
        int[] types = {i, comm, se, u, skbPtr, skbPtr, u, i};
        int[] anon = new int[3 + rnd.nextInt(10)];
        for (int k = 0; k < anon.length; k++) {
            anon[k] = rnd.nextBoolean() ? b.addStruct(null, 256) : b.addUnion(null, 256);
            int members = 1 + rnd.nextInt(4);
            for (int m = 0; m < members; m++) {
                int bits = 64 * m + 8 * rnd.nextInt(4);
                if (k > 0 && rnd.nextInt(3) == 0) {
                    b.addMember(null, anon[rnd.nextInt(k)], bits, 0);
                } else {
                    int n = rnd.nextInt(names.length);
                    int t = n == 0 && rnd.nextInt(3) == 0 ? bad : types[n];
                    b.addMember(names[n], t, bits, 0);
                }
            }
        }
        // half the time a decoy first: an anonymous struct whose pid is a struct, then the rest
        int decoy = b.addStruct(null, 8);
        b.addMember("len", i, 0, 0);
        b.addMember("pid", bad, 32, 0);
        b.addMember("x", i, 40, 0);
        boolean withDecoy = rnd.nextBoolean();
        for (String root : new String[] {"task_struct", "sk_buff"}) {
            b.addStruct(root, 1024);
            if (withDecoy) {
                b.addMember(null, decoy, 0, 0);
            }
            int members = 1 + rnd.nextInt(4);
            for (int m = 1; m <= members; m++) {
                b.addMember(null, anon[anon.length - 1 - rnd.nextInt(Math.min(3, anon.length))], 256 * m, 0);
            }
        }
        return b.build();
    }

    /**
     * {@code typedef int f0_t; typedef void (*fK_t)(fK-1_t);} and {@code typedef int *...*p_t}:
     * type_exists of f32_t resolves, of f33_t is an error (libbpf's 32 levels); p_t with 31
     * pointers resolves, with 32 is an error (32 types followed in a row). Each as its own
     * program, since libbpf stops at the first failing relocation.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"f31_t", "f32_t", "f33_t", "p31_t", "p32_t"})
    void depthLimitsAsInLibbpf(String type, @TempDir Path tmp) throws IOException, InterruptedException {
        Path object = compile(tmp, type);
        for (ReloKind kind : new ReloKind[] {ReloKind.TYPE_EXISTS, ReloKind.TYPE_MATCHES}) {
            Path prog = kind == ReloKind.TYPE_EXISTS ? object : withKind(object, tmp, kind);
            assertSameAsLibbpf(prog, prog, type + " " + kind);
        }
    }

    /** A BPF program with one type_exists relocation of {@code type}, built with clang. */
    private static Path compile(Path dir, String type) throws IOException {
        StringBuilder src = new StringBuilder("typedef unsigned long long __u64;\n#define SEC(n) __attribute__((section(n), used))\n"
                + "typedef int f0_t;\n");
        for (int k = 1; k <= 34; k++) {
            src.append("typedef void (*f").append(k).append("_t)(f").append(k - 1).append("_t);\n");
        }
        for (int n : new int[] {31, 32}) {
            src.append("typedef int ").append("*".repeat(n)).append("p").append(n).append("_t;\n");
        }
        src.append("__u64 out[1];\nchar LICENSE[] SEC(\"license\") = \"GPL\";\nSEC(\"kprobe/do_exit\")\n")
                .append("int prog(void *ctx)\n{\n\tout[0] = __builtin_preserve_type_info(*(").append(type)
                .append(" *)0, 0);\n\treturn 0;\n}\n");
        return LibbpfCore.compile(dir, type, src.toString());
    }

    /** The object with its one CO-RE record's kind changed (clang 14 cannot write type_matches). */
    private static Path withKind(Path object, Path dir, ReloKind kind) throws IOException {
        byte[] bytes = Files.readAllBytes(object);
        io.btfkit.core.ext.BtfExtInfo.CoreRelo c = InputLoader.load(object, null).ext().coreRelo().coreRelo(0);
        byte[] want = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(c.insnOff()).putInt(c.typeId()).putInt(c.accessStrOff()).putInt(c.kind()).array();
        int at = -1;
        for (int k = 0; k + 16 <= bytes.length && at < 0; k++) {
            if (java.util.Arrays.equals(bytes, k, k + 16, want, 0, 16)) {
                at = k;
            }
        }
        assertTrue(at >= 0);
        bytes[at + 12] = (byte) kind.ordinal();
        Path out = dir.resolve(kind + "-" + object.getFileName());
        Files.write(out, bytes);
        return out;
    }

    /**
     * libbpf's outcome of each relocation — value, poison or error, and the first matching
     * candidate's raw access path (where a stale index would show) — equals btfkit's.
     */
    private static void assertSameAsLibbpf(Path object, Path target, String what) throws IOException {
        String log = LibbpfCore.log(object, target);
        assertTrue(log.contains("core_oracle: load"), log);
        List<LibbpfCore.Outcome> libbpf = LibbpfCore.outcomes(log);
        assertTrue(!libbpf.isEmpty(), log);
        assertEquals(libbpf, LibbpfCore.btfkit(object, InputLoader.load(target, null).btf()), what + "\n" + log);
    }
}
