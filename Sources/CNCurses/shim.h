// The ncursesw (wide-character) API for CursesTerminal, the only module that imports it.
//
// Swift imports plain functions and simple integer macros (KEY_UP, ERR, OK, ...) directly.
// What it cannot import -- function-like macros, macros built from other macros, and C
// globals (which Swift 6 treats as unsafe shared state) -- gets a tiny static inline
// wrapper here, prefixed `cn_`.
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 600
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#else
#include <curses.h>
#include <term.h>
#endif

// Globals, read through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }

// Function-like and compound macros.
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline int cn_key_f0(void) { return KEY_F0; }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline mmask_t cn_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cn_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED; }
static inline mmask_t cn_button2_pressed(void) { return BUTTON2_PRESSED; }
static inline mmask_t cn_button2_released(void) { return BUTTON2_RELEASED; }
static inline mmask_t cn_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t cn_button3_released(void) { return BUTTON3_RELEASED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
#ifdef BUTTON5_PRESSED
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t cn_button5_pressed(void) { return 0; }
#endif

// The stdscr variants are macros; these take the window explicitly.
static inline int cn_get_wch(wint_t *ch) { return wget_wch(stdscr, ch); }

/// One cell: a spacing character plus up to CCHARW_MAX - 1 combining characters, drawn at
/// (y, x) with attributes and an extended colour pair (0 = the terminal's default colours).
static inline int cn_draw_cell(int y, int x, const wchar_t *text, attr_t attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, 0, &pair) == ERR) {
        return ERR;
    }
    return mvwadd_wch(stdscr, y, x, &cell);
}

/// Cells the C library (and so curses) gives a character: 0, 1, 2, or -1 if unprintable.
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }

/// The most characters one cell can hold (spacing character plus combining characters).
static inline int cn_cell_capacity(void) { return CCHARW_MAX; }

/// A terminfo string capability, or NULL when the terminal lacks it.
static inline const char *cn_capability(const char *name) {
    char *value = tigetstr(name);
    if (value == NULL || value == (char *)-1) {
        return NULL;
    }
    return value;
}

#endif
