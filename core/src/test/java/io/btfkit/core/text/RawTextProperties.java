package io.btfkit.core.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfWriter;
import io.btfkit.core.Kind;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * dump → parse → dump is the identity on random BTF built with {@link BtfBuilder}: every kind,
 * names with spaces, quotes, tabs, backslashes and non-ASCII characters, negative enum values,
 * ENUM64 values with the high bit set, bitfields, forward references, split BTF on a random
 * base. The parsed types equal the built ones (string offsets compared by their strings; only
 * the attribute flag of DECL_TAG/TYPE_TAG, which the text does not show, may be lost), and
 * parsing the re-dumped text gives byte-identical raw BTF.
 */
class RawTextProperties {
    private static final String ALPHABET = "abcxyz_019 '\"\\\t\r()#[]=,.\u00e9\u00fc\u20ac\u4e2d";
    private static final String[] SPECIAL_NAMES = {"(anon)", "(invalid)", "'", "''", " ", "a' type_id=1"};

    @Property(tries = 300)
    void dumpParseDumpIsIdentity(@ForAll long seed) {
        Random r = new Random(seed);
        Btf x = randomBtf(r, null, 1 + r.nextInt(40));
        roundTrip(x);
    }

    @Property(tries = 150)
    void splitDumpParseDumpIsIdentity(@ForAll long seed) {
        Random r = new Random(seed);
        Btf base = randomBtf(r, null, 1 + r.nextInt(15));
        Btf x = randomBtf(r, base, r.nextInt(25));
        roundTrip(x);
    }

    private static void roundTrip(Btf x) {
        String text = RawTextPrinter.toText(x);
        Btf y = RawTextParser.parse(text, x.base());
        assertEquals(text, RawTextPrinter.toText(y));
        TypeWords.assertSameTypes(x, y);
        TypeWords.assertFirstUseOrder(y);
        Btf z = RawTextParser.parse(RawTextPrinter.toText(y), x.base());
        assertArrayEquals(BtfWriter.write(y), BtfWriter.write(z));
    }

    /** {@code count} random types; type ids anywhere in [0, final type count). */
    static Btf randomBtf(Random r, Btf base, int count) {
        BtfBuilder b = new BtfBuilder(base);
        int limit = b.nextId() + count;
        for (int i = 0; i < count; i++) {
            int kind = 1 + r.nextInt(Kind.MAX_KNOWN);
            switch (kind) {
                case Kind.INT:
                    b.addInt(name(r), 1 << r.nextInt(5), new int[] {0, 1, 2, 4}[r.nextInt(4)], r.nextInt(256), r.nextInt(256));
                    break;
                case Kind.PTR:
                    b.addPtr(ref(r, limit));
                    break;
                case Kind.ARRAY:
                    b.addArray(ref(r, limit), ref(r, limit), r.nextInt());
                    break;
                case Kind.STRUCT:
                case Kind.UNION: {
                    if (kind == Kind.STRUCT) {
                        b.addStruct(name(r), r.nextInt());
                    } else {
                        b.addUnion(name(r), r.nextInt());
                    }
                    boolean bitfields = r.nextBoolean();
                    for (int m = r.nextInt(6); m > 0; m--) {
                        int bf = bitfields && r.nextBoolean() ? r.nextInt(256) : 0;
                        int off = bitfields ? r.nextInt(1 << 24) : r.nextInt();
                        b.addMember(name(r), ref(r, limit), off, bf);
                    }
                    break;
                }
                case Kind.ENUM: {
                    b.addEnum(name(r), 1 << r.nextInt(4), r.nextBoolean());
                    for (int m = r.nextInt(5); m > 0; m--) {
                        b.addEnumValue(name(r), r.nextBoolean() ? r.nextInt() : r.nextInt(9) - 4);
                    }
                    break;
                }
                case Kind.ENUM64: {
                    b.addEnum64(name(r), 8, r.nextBoolean());
                    for (int m = r.nextInt(5); m > 0; m--) {
                        long v = switch (r.nextInt(4)) {
                            case 0 -> Long.MIN_VALUE;
                            case 1 -> -1L;
                            case 2 -> r.nextLong() | Long.MIN_VALUE;
                            default -> r.nextLong();
                        };
                        b.addEnumValue(name(r), v);
                    }
                    break;
                }
                case Kind.FWD:
                    b.addFwd(name(r), r.nextBoolean());
                    break;
                case Kind.TYPEDEF:
                    b.addTypedef(name(r), ref(r, limit));
                    break;
                case Kind.VOLATILE:
                    b.addVolatile(ref(r, limit));
                    break;
                case Kind.CONST:
                    b.addConst(ref(r, limit));
                    break;
                case Kind.RESTRICT:
                    b.addRestrict(ref(r, limit));
                    break;
                case Kind.FUNC:
                    b.addFunc(name(r), ref(r, limit), r.nextInt(3));
                    break;
                case Kind.FUNC_PROTO:
                    b.addFuncProto(ref(r, limit));
                    for (int m = r.nextInt(5); m > 0; m--) {
                        b.addParam(name(r), ref(r, limit));
                    }
                    break;
                case Kind.VAR:
                    b.addVar(name(r), ref(r, limit), r.nextInt(3));
                    break;
                case Kind.DATASEC:
                    b.addDatasec(name(r), r.nextInt());
                    for (int m = r.nextInt(4); m > 0; m--) {
                        b.addVarSecinfo(ref(r, limit), r.nextInt(), r.nextInt());
                    }
                    break;
                case Kind.FLOAT:
                    b.addFloat(name(r), 1 << r.nextInt(5));
                    break;
                case Kind.DECL_TAG:
                    if (r.nextBoolean()) {
                        b.addDeclTag(name(r), ref(r, limit), r.nextInt(6) - 1);
                    } else {
                        b.addDeclAttr(name(r), ref(r, limit), r.nextInt());
                    }
                    break;
                case Kind.TYPE_TAG:
                    if (r.nextBoolean()) {
                        b.addTypeTag(name(r), ref(r, limit));
                    } else {
                        b.addTypeAttr(name(r), ref(r, limit));
                    }
                    break;
                default:
                    throw new IllegalStateException("kind " + kind);
            }
        }
        return b.build();
    }

    private static int ref(Random r, int limit) {
        return r.nextInt(limit);
    }

    /** A random name: often empty (anonymous), sometimes one of the tricky ones. */
    private static String name(Random r) {
        int pick = r.nextInt(10);
        if (pick == 0) {
            return "";
        }
        if (pick == 1) {
            return SPECIAL_NAMES[r.nextInt(SPECIAL_NAMES.length)];
        }
        StringBuilder sb = new StringBuilder();
        for (int n = 1 + r.nextInt(8); n > 0; n--) {
            sb.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        return sb.toString();
    }
}
