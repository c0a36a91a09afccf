package io.proofline.web.console;

import java.util.regex.Pattern;

/**
 * Masks the secrets a connection URL may carry before the console shows it. JDBC drivers take a password in several
 * places: the authority ({@code postgresql://user:secret@host}), Oracle's thin form ({@code thin:user/secret@host}),
 * query parameters ({@code ?password=}, {@code &sslpassword=}) and semicolon properties ({@code ;PASSWORD=},
 * SQL Server's braced {@code ;password={a;b}}). Each value is replaced whole, so no prefix of a secret is shown;
 * the rest of the URL (host, database, options) stays readable.
 */
final class UrlSecrets {

    static final String MASK = "****";

    /** {@code //user:secret@}: everything from the first colon of the authority to its last {@code @}. */
    private static final Pattern AUTHORITY = Pattern.compile("(//[^/?#;@:]*:)[^/?#]*@");
    /** Oracle's {@code jdbc:oracle:thin:user/secret@host}. */
    private static final Pattern ORACLE_THIN = Pattern.compile("(?i)(:thin:[^/@:;]*/)[^@]*@");
    /**
     * A parameter or property whose name says it holds a secret, after {@code ?}, {@code &}, {@code ;} or
     * {@code :} (some drivers separate properties by colons); its value runs to the next separator, or is braced.
     */
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            "(?i)([?&;:]\\s*[a-z0-9_.\\-]*(?:password|passwd|pwd|secret|token|credential)[a-z0-9_.\\-]*\\s*=\\s*)"
                    + "(\\{[^}]*}|[^&;]*)");

    private UrlSecrets() {
    }

    /** The URL with every secret it carries replaced by {@value #MASK}; {@code null} stays {@code null}. */
    static String mask(String url) {
        if (url == null) {
            return null;
        }
        String masked = AUTHORITY.matcher(url).replaceAll("$1" + MASK + "@");
        masked = ORACLE_THIN.matcher(masked).replaceAll("$1" + MASK + "@");
        return SECRET_PARAMETER.matcher(masked).replaceAll("$1" + MASK);
    }
}
