import '../ui/base.css'
import App from './App.vue'
import { setupApp } from '../ui/setup'

setupApp(App)
