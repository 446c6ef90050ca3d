/*
 * ICU (Debian: libicu-dev, Scripts/setup installs it), found with pkg-config icu-uc and linked. Nothing of ICU
 * is declared here: Foundation brings its own copy of ICU's types (_FoundationICU), and a second
 * declaration of them in one Swift module does not compile. CLineBreak includes ICU's headers in its C file
 * and gives Swift plain C calls.
 */
