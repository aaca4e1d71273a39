package io.btfkit.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.Kind;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Valid BTF passes, profiles differ where they should, split and deep inputs work. */
class ValidatorTest {

    private static Set<String> rules(List<Finding> f) {
        return f.stream().map(Finding::rule).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every kind, used the way compilers and pahole use it. */
    static Btf everyKind() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);                       // 1
        int ch = b.addInt("char", 1, Kind.INT_SIGNED);                     // 2
        int node = b.addStruct("node", 24);                                // 3
        b.addMember("next", 4, 0, 0);
        b.addMember("val", i, 64, 0);
        b.addMember("flags", i, 96, 3);
        b.addMember("more", i, 99, 29);
        b.addMember("name", 5, 128, 0);
        b.addPtr(node);                                                    // 4: struct node *
        b.addArray(ch, i, 8);                                              // 5: char[8]
        int u = b.addUnion("u", 8);                                        // 6
        b.addMember("i", i, 0, 0);
        b.addMember("d", 12, 0, 0);
        int e = b.addEnum("color", 4, true);                               // 7
        b.addEnumValue("RED", -1);
        b.addEnumValue("GREEN", 1);
        b.addFwd("opaque", true);                                          // 8
        b.addTypedef("u_t", u);                                            // 9
        b.addVolatile(11);                                                 // 10
        b.addConst(0);                                                     // 11: const void
        b.addFloat("double", 8);                                           // 12
        int proto = b.addFuncProto(i);                                     // 13
        b.addParam("n", 4);
        b.addParam(null, 0);
        b.addFunc("walk", proto, Kind.LINKAGE_GLOBAL);                     // 14
        int v = b.addVar("head", node, Kind.LINKAGE_GLOBAL);               // 15
        b.addVar("count.0", i, Kind.LINKAGE_STATIC);                       // 16
        b.addDatasec(".data..percpu", 32);                                 // 17
        b.addVarSecinfo(v, 0, 24);
        b.addVarSecinfo(16, 24, 4);
        b.addDeclTag("user", node, 1);                                     // 18
        b.addDeclTag("kfunc", 14, 0);                                      // 19
        b.addTypeTag("rcu", 21);                                           // 20
        b.addConst(node);                                                  // 21
        b.addPtr(20);                                                      // 22: const struct node __rcu *
        b.addEnum64("big", 8, false);                                      // 23
        b.addEnumValue("HUGE", 1L << 40);
        b.addPtr(8);                                                       // 24: union opaque *
        b.addTypedef("void_t", 0);                                         // 25
        b.addPtr(13);                                                      // 26: function pointer
        b.addTypeAttr("attr", i);                                          // 27: TYPE_TAG with kind_flag
        b.addDeclAttr("attr", 15, -1);                                     // 28: DECL_TAG with kind_flag
        b.addStruct("holder", 8);                                          // 29
        b.addMember("e", e, 0, 0);
        b.addMember("fp", 26, 0, 0);
        b.addInt("__int128", 16, Kind.INT_SIGNED);                         // 30
        b.addStruct(null, 0);                                              // 31: anonymous, empty
        return b.build();
    }

    @Test
    void everyKindUsedCorrectlyIsValid() {
        Btf btf = everyKind();
        assertEquals(List.of(), Validator.validate(btf, Validator.Options.ALL));
        assertEquals(List.of(), Validator.validate(btf, Validator.Options.STRUCTURAL));
        Validator.checkOutput(btf);
    }

    /** What clang -target bpf writes into an object file before libbpf fixes it up. */
    static Btf objectFile() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);                               // 1
        b.addFuncProto(1);                                                 // 2
        b.addParam(null, 1);
        b.addFunc("bpf_kfunc", 2, Kind.LINKAGE_EXTERN);                    // 3
        b.addVar("CONFIG_HZ", 1, Kind.LINKAGE_EXTERN);                     // 4
        b.addVar("glob", 1, Kind.LINKAGE_GLOBAL);                          // 5
        b.addVar("other", 1, Kind.LINKAGE_GLOBAL);                         // 6
        b.addDatasec(".kconfig", 0);                                       // 7
        b.addVarSecinfo(4, 0, 4);
        b.addDatasec(".ksyms", 0);                                         // 8
        b.addVarSecinfo(3, 0, 0);
        b.addDatasec(".data", 0);                                          // 9
        b.addVarSecinfo(5, 0, 4);
        b.addVarSecinfo(6, 0, 4);
        return b.build();
    }

    @Test
    void objectFileBtfIsStructurallyValidButNotLoadable() {
        Btf btf = objectFile();
        assertEquals(List.of(), Validator.validate(btf, Validator.Options.STRUCTURAL));
        Validator.checkOutput(btf);
        List<Finding> kernel = Validator.validate(btf, Validator.Options.ALL);
        assertEquals(Set.of("datasec-entry", "datasec-layout", "datasec-size", "func-linkage", "func-param-name", "var-linkage"),
                rules(kernel),
                kernel::toString);
        assertEquals(List.of(3, 4, 7, 8, 9), kernel.stream().map(Finding::typeId).distinct().collect(Collectors.toList()));
    }

    @Test
    void splitBtfIsCheckedOnItsOwnTypesAgainstItsBase() {
        BtfBuilder bb = new BtfBuilder();
        bb.addInt("int", 4, Kind.INT_SIGNED);                              // 1
        bb.addStruct("pair", 8);                                           // 2
        bb.addMember("a", 1, 0, 0);
        bb.addMember("b", 1, 32, 0);
        bb.addTypedef(null, 1);                                            // 3: broken, but in the base
        bb.addConst(2);                                                    // 4
        Btf base = bb.build();
        assertEquals(Set.of("name-missing"), rules(Validator.validate(base)));

        BtfBuilder sb = new BtfBuilder(base);
        sb.addStruct("wrap", 8);                                           // 5: const struct pair, fits
        sb.addMember("p", 4, 0, 0);
        sb.addStruct("small", 12);                                         // 6: struct pair at byte 8 of 12
        sb.addMember("x", 1, 0, 0);
        sb.addMember("p", 2, 64, 0);
        sb.addPtr(6);                                                      // 7
        Btf split = sb.build();
        List<Finding> f = Validator.validate(split);
        assertEquals(1, f.size(), f::toString);
        assertEquals("member-size", f.get(0).rule());
        assertEquals(6, f.get(0).typeId());
        assertEquals("type [6] STRUCT 'small': member-size broken (member 1 'p' of 8 bytes at byte 8 ends past the size 12)",
                f.get(0).toString());
    }

    @Test
    void chainsFarDeeperThanTheKernelsStackNeedNoRecursion() {
        int n = 200_000;
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        for (int id = 2; id <= n; id++) {
            b.addTypedef("t" + id, id == n ? 1 : id + 1);
        }
        Btf chain = b.build();
        assertEquals(List.of(), Validator.validate(chain, Validator.Options.STRUCTURAL));
        List<Finding> kernel = Validator.validate(chain, Validator.Options.ALL);
        assertEquals(List.of("modifier-chain", "resolve-depth"), kernel.stream().map(Finding::rule).sorted().collect(Collectors.toList()),
                "one finding each, not one per 32 types: " + kernel.size());

        BtfBuilder c = new BtfBuilder();
        for (int id = 1; id <= n; id++) {
            c.addPtr(id == n ? 1 : id + 1);
        }
        List<Finding> loop = Validator.validate(c.build(), Validator.Options.STRUCTURAL);
        assertEquals(1, loop.size(), loop::toString);
        assertEquals("loop", loop.get(0).rule());
        assertEquals(1, loop.get(0).typeId());
        assertTrue(loop.get(0).detail().contains("more"), loop.get(0).detail());
    }

    @Test
    void findingsAreSortedAndStopAtFirstStopsEarly() {
        BtfBuilder b = new BtfBuilder();
        b.format(new Btf.RawFormat(ByteOrder.LITTLE_ENDIAN, 24, 2, null));
        b.addFloat("f", 3);                                                // 1
        b.addStruct("a", 4);                                               // 2
        b.addMember("self", 2, 0, 0);
        b.addTypedef(null, 1);                                             // 3
        List<Finding> all = Validator.validate(b.build());
        assertEquals(List.of(-1, 1, 2, 3), all.stream().map(Finding::typeId).collect(Collectors.toList()), all::toString);
        assertEquals("btf: header-flags broken (header flags are 0x2)", all.get(0).toString());
        assertEquals("type [2] STRUCT 'a': loop broken (reference cycle [2] STRUCT -> [2])", all.get(2).toString());
        assertEquals("type [3] TYPEDEF '(anon)': name-missing broken (has no name)", all.get(3).toString());
        assertEquals(1, Validator.validate(b.build(), Validator.Options.FIRST).size());
    }

    @Test
    void checkOutputThrowsOnTheFirstStructuralFinding() {
        BtfBuilder b = new BtfBuilder();
        b.addInt("int", 4, Kind.INT_SIGNED);
        b.addStruct("s", 2);
        b.addMember("a", 1, 0, 0);
        ValidationException e = assertThrows(ValidationException.class, () -> Validator.checkOutput(b.build()));
        assertEquals(1, e.findings().size());
        assertEquals("output BTF is invalid, not written: type [2] STRUCT 's': member-size broken "
                + "(member 0 'a' of 4 bytes at byte 0 ends past the size 2)", e.getMessage());
    }

    @Test
    void namesFollowTheKernelsCharacterClasses() {
        BtfBuilder b = new BtfBuilder();
        b.addStruct(".L.tmp_1", 0);                                        // '.' anywhere is fine
        b.addStruct("_", 0);
        InvalidBtfCases.raw(b, b.addString(new byte[] {(byte) 0xe9, 't', 'e'}), Kind.STRUCT, 0, false, 0); // Latin-1 letter
        b.addInt("unsigned int", 4, 0);                                    // INT names are free text
        b.addVar("v", 4, Kind.LINKAGE_STATIC);
        b.addDatasec(".rodata.str1.1 (merged)", 4);                       // printable, spaces allowed
        b.addVarSecinfo(5, 0, 4);
        b.addStruct("x".repeat(Names.MAX_LENGTH), 0);
        assertEquals(List.of(), Validator.validate(b.build()));
        b.addStruct("x".repeat(Names.MAX_LENGTH + 1), 0);
        assertEquals(Set.of("name-identifier"), rules(Validator.validate(b.build())));
    }

    @Test
    void everyRuleHasAUniqueIdAndAKernelMessage() {
        Set<String> ids = new TreeSet<>();
        for (Rule r : Rule.values()) {
            assertTrue(ids.add(r.id()), r.id());
            assertEquals(r, Rule.byId(r.id()));
            assertTrue(!r.kernelMessage().isEmpty() && !r.summary().isEmpty());
        }
    }
}
