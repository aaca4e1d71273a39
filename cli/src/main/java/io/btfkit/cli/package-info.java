/**
 * The {@code btfkit} command: one picocli command per capability, inputs loaded and outputs
 * written safely (atomic, all or none), batch mode with a progress bar, errors as
 * {@code btfkit: FILE: what is wrong, where} with exit status 0, 1 or 2. Depends on every
 * capability module; none depends on it. Usage: README.md and docs/GUIDE.md.
 */
package io.btfkit.cli;
