import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import globals from 'globals'
import prettier from 'eslint-config-prettier/flat'

// The layer rules (STYLE.md): core runs anywhere, dom runs in a page and sees only core.
const coreBans = {
  patterns: [
    {
      group: [
        '**/dom/**',
        '**/background/**',
        '**/content/**',
        '**/popup/**',
        '**/options/**',
        '**/ui/**',
        '**/messaging/**',
        '**/storage/**',
      ],
      message: 'src/core must not import page, extension or UI code.',
    },
    {
      group: ['vue', 'pinia', 'webextension-polyfill', '*.vue'],
      message: 'src/core must not import UI or extension libraries.',
    },
  ],
}
const domBans = {
  patterns: [
    {
      group: [
        '**/background/**',
        '**/content/**',
        '**/popup/**',
        '**/options/**',
        '**/ui/**',
        '**/messaging/**',
        '**/storage/**',
      ],
      message: 'src/dom may import src/core only.',
    },
    {
      group: ['vue', 'pinia', 'webextension-polyfill', '*.vue'],
      message: 'src/dom must not import UI or extension libraries.',
    },
  ],
}

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', '.ava-out/**', 'bin/**', 'lib/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node, chrome: 'readonly' },
    },
    rules: {
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/no-v-html': 'off',
    },
  },
  // Prettier owns the layout; the lint rules that would argue with it are off.
  prettier,
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', coreBans],
      'no-restricted-globals': ['error', 'chrome', 'browser', 'document', 'window', 'navigator', 'location'],
    },
  },
  {
    files: ['src/dom/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', domBans], 'no-restricted-globals': ['error', 'chrome', 'browser'] },
  },
)
