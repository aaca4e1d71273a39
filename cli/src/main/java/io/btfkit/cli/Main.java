package io.btfkit.cli;

import io.btfkit.core.BtfException;
import io.btfkit.core.OperationException;
import io.btfkit.core.Printable;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code btfkit} command: parses the command line with picocli and turns every failure into
 * one line on stderr ({@code btfkit: FILE: message}) and an exit status (0 ok, 1 operation
 * failed on valid input, 2 usage error or malformed input). Never a stack trace, unless
 * {@code BTFKIT_DEBUG} is set in the environment.
 */
@Command(name = "btfkit", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Read, validate, deduplicate, link, distill and relocate BPF Type Format (BTF).",
        subcommands = {})
public final class Main implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code btfkit} alone: the command list on stderr (as git and bpftool do), exit 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.BAD_INPUT;
    }

    public static void main(String[] args) {
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        OutputStream err = new FileOutputStream(FileDescriptor.err);
        OutOfMemory.handleOtherThreads();
        System.exit(run(args, out, err));
    }

    /**
     * Runs btfkit writing to the given streams and returns the exit status (for tests and
     * embedding). Data output (dumps) goes to {@code out} as raw bytes; messages as UTF-8.
     */
    public static int run(String[] args, OutputStream out, OutputStream err) {
        return run(args, null, out, err);
    }

    /** As {@link #run(String[], OutputStream, OutputStream)}, reading input {@code -} from {@code in} (null: System.in). */
    public static int run(String[] args, java.io.InputStream in, OutputStream out, OutputStream err) {
        PrintWriter perr = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        Streams.set(in, out, perr);
        // (through Streams.out(), so that a help text that cannot be written fails too)
        PrintWriter pout = new PrintWriter(new OutputStreamWriter(Streams.out(), StandardCharsets.UTF_8), true);
        try {
            // a plain command line runs without building picocli's model (see QuickArgs)
            java.util.concurrent.Callable<Integer> quick = QuickArgs.parse(args);
            if (quick != null) {
                return checkStdout(call(quick, args[0], perr), pout, perr);
            }
            CommandLine cl = commandLine(args.length > 0 ? args[0] : null);
            cl.setOut(pout);
            cl.setErr(perr);
            return checkStdout(cl.execute(args), pout, perr);
        } catch (OutOfMemoryError e) {
            return OutOfMemory.report(args.length > 0 ? args[0] : null, perr);
        } finally {
            pout.flush();
            perr.flush();
            Streams.clear();
            OutOfMemory.clear();
        }
    }

    /** The subcommands, in the order help lists them. */
    private static final Class<?>[] COMMANDS = {
        DumpCommand.class,
        ConvertCommand.class,
        AsmCommand.class,
        StatsCommand.class,
        ValidateCommand.class,
        DedupCommand.class,
        LinkCommand.class,
        DistillCommand.class,
        RelocateCommand.class,
        PermuteCommand.class,
        DiffCommand.class,
        CoreCheckCommand.class,
        MinimizeCommand.class,
        CommandLine.HelpCommand.class,
        picocli.AutoComplete.GenerateCompletion.class,
    };

    /**
     * Their names, as their {@code @Command} annotations say (checked by a test): reading the
     * annotations of all fourteen classes costs start-up time a one-command run need not pay.
     */
    static final String[] NAMES = {
        "dump", "convert", "asm", "stats", "validate", "dedup", "link", "distill", "relocate", "permute", "diff", "core-check", "minimize",
        "help", "generate-completion",
    };

    static CommandLine commandLine() {
        return commandLine(null);
    }

    /** The subcommand classes, in help order (for tests). */
    static java.util.List<Class<?>> commandClasses() {
        return java.util.List.of(COMMANDS);
    }

    /**
     * The command line with every subcommand, or — when {@code first} names one — with only that
     * one: picocli builds each command's model by reflection, and a small command (dump or
     * validate one module) should not pay for all of them at start-up. {@code help} and
     * {@code generate-completion} describe every command, so they get them all.
     */
    static CommandLine commandLine(String first) {
        CommandLine cl = new CommandLine(new Main());
        int only = -1;
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(first) && !"help".equals(first) && !"generate-completion".equals(first)) {
                only = i;
            }
        }
        for (int i = 0; i < COMMANDS.length; i++) {
            if (only < 0 || i == only) {
                cl.addSubcommand(COMMANDS[i]);
            }
        }
        cl.setExecutionExceptionHandler(Main::onException);
        cl.setParameterExceptionHandler(Main::onUsageError);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        HelpLayout.apply(cl);
        return cl;
    }

    /**
     * A write error on stdout fails every command, whichever way it printed (a PrintWriter
     * swallows errors): exit 2 with the OS's reason. Once reported, {@code status} is moot.
     */
    private static int checkStdout(int status, PrintWriter out, PrintWriter err) {
        out.flush();
        java.io.IOException e = Streams.outError();
        if (e == null) {
            try {
                Streams.out().flush();
            } catch (java.io.IOException flushFailed) {
                e = flushFailed;
            }
        }
        if (e == null) {
            return status;
        }
        if (isBrokenPipe(e)) {
            return ExitCodes.OK; // the reader of our output went away (e.g. `| head`): not an error
        }
        err.println("btfkit: stdout: " + io.btfkit.core.io.IoErrors.reason(e));
        return ExitCodes.BAD_INPUT;
    }

    private static boolean isBrokenPipe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.io.IOException && String.valueOf(t.getMessage()).contains("Broken pipe")) {
                return true;
            }
        }
        return false;
    }

    /** Runs a command QuickArgs parsed, mapping what it throws as picocli's execute would. */
    private static int call(java.util.concurrent.Callable<Integer> command, String name, PrintWriter err) {
        try {
            Integer status = command.call();
            return status == null ? ExitCodes.OK : status;
        } catch (Exception e) {
            return onException(e, name, err);
        }
    }

    private static int onUsageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        return usageError(UsageMessages.of(e), cl.getCommandName(), cl.getErr());
    }

    private static int usageError(String message, String command, PrintWriter err) {
        err.println("btfkit: " + message);
        err.println("Try 'btfkit " + (command.equals("btfkit") ? "--help" : "help " + command) + "' for usage.");
        return ExitCodes.BAD_INPUT;
    }

    private static int onException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        return onException(e, cl.getCommandName(), cl.getErr());
    }

    private static int onException(Exception e, String command, PrintWriter err) {
        if (e instanceof UsageException) {
            return usageError(e.getMessage(), command, err);
        }
        if (Streams.outError() != null) {
            return ExitCodes.BAD_INPUT; // stdout failed: checkStdout says why
        }
        if (System.getenv("BTFKIT_DEBUG") != null) {
            e.printStackTrace(err);
        }
        if (e instanceof FileException fe) {
            err.println("btfkit: " + Names.quote(fe.file()) + ": " + Printable.oneLine(fe.getMessage()));
            return fe.exitCode();
        }
        if (e instanceof BtfException be) {
            String file = be instanceof io.btfkit.core.AboutFile af && af.file() != null ? af.file() + ": " : "";
            err.println("btfkit: " + file + Printable.oneLine(be.getMessage()));
            return be instanceof OperationException ? ExitCodes.FAILED : ExitCodes.BAD_INPUT;
        }
        if (e instanceof CommandFailedException cf) {
            return cf.exitCode();
        }
        if (OutOfMemory.isCause(e)) {
            return OutOfMemory.report(command, err); // from a pass's worker thread, through its join
        }
        if (isBrokenPipe(e)) {
            return ExitCodes.OK; // the reader of our output went away (e.g. `| head`): not an error
        }
        err.println("btfkit: internal error: " + e + " (set BTFKIT_DEBUG=1 for details; please report it)");
        return ExitCodes.INTERNAL;
    }
}
