package io.btfkit.relocate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.IntRange;

/**
 * On random distilled bases, splits and new bases drawn from a tiny name pool (so names collide,
 * kinds clash, sizes differ and candidates repeat), btfkit's indexed matching reaches libbpf's
 * outcome: the same map on success, and on failure libbpf's complaint as the first problem —
 * except where libbpf maps a type the split needs by size (an array element, a variable) onto a
 * FWD: btfkit reports exactly those types ({@code NEEDED_BY_SIZE}), after libbpf's complaint.
 */
class MatchingAgreesWithLibbpfProperties {
    private static final String[] NAMES = {"a", "b", "c", "ab"};
    private static final int[] SIZES = {0, 4, 8};

    @Property(tries = 3000)
    void sameOutcomeAsLibbpf(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int distTypes,
            @ForAll @IntRange(min = 0, max = 6) int baseTypes) {
        Random r = new Random(seed);
        BtfBuilder db = new BtfBuilder();
        for (int i = 0; i < distTypes; i++) {
            String name = NAMES[r.nextInt(NAMES.length)];
            int size = SIZES[1 + r.nextInt(2)];
            switch (r.nextInt(6)) {
                case 0:
                    db.addInt(name, size, r.nextInt(2));
                    break;
                case 1:
                    db.addFloat(name, size);
                    break;
                case 2:
                    db.addEnum(name, size, false);
                    break;
                case 3:
                    db.addStruct(name, size);
                    break;
                case 4:
                    db.addUnion(name, size);
                    break;
                default:
                    db.addFwd(name, r.nextBoolean());
                    break;
            }
        }
        Btf dist = db.build();
        BtfBuilder sb = new BtfBuilder(dist);
        int holders = 1 + r.nextInt(3);
        for (int h = 0; h < holders; h++) {
            int target = 1 + r.nextInt(distTypes);
            int via = r.nextInt(4);
            int ref = via == 0 ? target : via == 1 ? sb.addTypedef("t", target) : via == 2 ? sb.addArray(target, 0, 2)
                    : sb.addPtr(target);
            sb.addStruct("holder", 64);
            sb.addMember("m", ref, 0, 0);
        }
        // by value outside any struct: libbpf does not check these sizes
        boolean[] bySize = new boolean[distTypes + 1];
        for (int k = r.nextInt(3); k > 0; k--) {
            int target = 1 + r.nextInt(distTypes);
            int ref = r.nextBoolean() ? target : sb.addConst(target);
            if (r.nextBoolean()) {
                sb.addArray(ref, 0, 2);
            } else {
                sb.addVar("v", ref, 0);
            }
            bySize[target] = true;
        }
        for (int d = 1; d <= distTypes; d++) {
            sb.addPtr(d);
        }
        Btf split = sb.build();
        // new base: near copies of most distilled types (sometimes resized) among random others, shuffled
        List<Consumer<BtfBuilder>> adds = new ArrayList<>();
        for (int d = 1; d <= distTypes; d++) {
            if (r.nextInt(4) != 0) {
                int kind = dist.kind(d);
                String name = dist.name(d);
                int size = r.nextInt(5) == 0 ? SIZES[r.nextInt(SIZES.length)] : dist.sizeOrType(d);
                boolean flag = r.nextBoolean();
                int enc = r.nextInt(4) == 0 ? r.nextInt(2) : kind == Kind.INT ? DistilledBaseMap.intEncoding(dist, d) : 0;
                // sometimes the new base only declares a struct or union (6.1.0-56-cloud's FWD 'mfd_cell')
                boolean declared = Kind.isComposite(kind) && r.nextInt(3) == 0;
                adds.add(declared ? nb -> nb.addFwd(name, kind == Kind.UNION) : nb -> addType(nb, kind, name, size, flag, enc));
            }
        }
        for (int i = 0; i < baseTypes; i++) {
            int[] kinds = {Kind.INT, Kind.FLOAT, Kind.ENUM, Kind.ENUM64, Kind.STRUCT, Kind.UNION, Kind.FWD, Kind.TYPEDEF};
            int kind = kinds[r.nextInt(kinds.length)];
            String name = NAMES[r.nextInt(NAMES.length)];
            int size = SIZES[r.nextInt(SIZES.length)];
            boolean flag = r.nextBoolean();
            int enc = r.nextInt(2);
            adds.add(nb -> addType(nb, kind, name, size, flag, enc));
        }
        Collections.shuffle(adds, r);
        BtfBuilder nb = new BtfBuilder();
        adds.forEach(add -> add.accept(nb));
        Btf base = nb.build();
        LibbpfMapModel.Outcome want = LibbpfMapModel.run(split, base);
        DistilledBaseMap got = DistilledBaseMap.build(split, NewBaseIndex.of(base));
        Statistics.collect(want.ok() ? "maps" : want.ambiguity() ? "libbpf stops on an ambiguity" : "unmapped type");
        if (want.ok()) {
            List<Integer> onFwd = new ArrayList<>();
            for (int d = 1; d <= distTypes; d++) {
                if (bySize[d] && Kind.isComposite(dist.kind(d)) && base.kind(want.map()[d]) == Kind.FWD) {
                    onFwd.add(d);
                }
            }
            Statistics.label("needed by size, on a FWD").collect(!onFwd.isEmpty());
            assertEquals(onFwd, got.problems.stream().map(Problem::typeId).toList(), () -> "problems: " + got.problems);
            assertTrue(got.problems.stream().allMatch(p -> p.reason() == Problem.Reason.NEEDED_BY_SIZE));
            if (onFwd.isEmpty()) {
                assertArrayEquals(want.map(), got.baseId);
            }
        } else {
            assertFalse(got.problems.isEmpty(), "libbpf fails");
            Problem first = got.problems.get(0);
            assertEquals(want.complaintId(), first.typeId(), () -> "first complaint differs: " + got.problems);
            if (want.complaintId() == 0) {
                assertEquals(Problem.Reason.INVALID_NAME, first.reason());
            } else if (want.ambiguity()) {
                assertEquals(Problem.Reason.AMBIGUOUS, first.reason(), () -> "libbpf stopped on an ambiguity: " + got.problems);
            }
            assertFalse(got.problems.stream().anyMatch(p -> p.reason() == Problem.Reason.INVALID_DISTILLED_TYPE));
        }
    }

    private static void addType(BtfBuilder nb, int kind, String name, int size, boolean flag, int enc) {
        switch (kind) {
            case Kind.INT:
                nb.addInt(name, Math.max(1, size), enc);
                break;
            case Kind.FLOAT:
                nb.addFloat(name, size);
                break;
            case Kind.ENUM:
                nb.addEnum(name, size, false);
                break;
            case Kind.ENUM64:
                nb.addEnum64(name, size, false);
                break;
            case Kind.STRUCT:
            case Kind.UNION:
                if (kind == Kind.STRUCT) {
                    nb.addStruct(name, size);
                } else {
                    nb.addUnion(name, size);
                }
                if (flag) {
                    nb.addMember("x", 0, 0, 1); // a bitfield sets the kind_flag
                }
                break;
            case Kind.FWD:
                nb.addFwd(name, flag);
                break;
            default:
                nb.addTypedef(name, 0); // a kind that is never a candidate
                break;
        }
    }
}
